import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { routineRouteDefinitions as routes } from './route-definitions.js';
import { admitStart } from './limits.js';
import { listRuns, newRun, runView, startRun } from './runs.js';
import { createRoutine, deleteRoutine, getRoutine, listRoutines, rotateSecret, routineView, updateRoutine } from './store.js';

/** `/api/workspaces/:id/routines…` (API function; the runs are jobs: run-job.ts). */
export function routineRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list.route, async (c) => {
      const routines = await listRoutines(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ routines: routines.map(routineView) }, 200);
    })
    .openapi(routes.create.route, async (c) => {
      const { routine, secret } = await createRoutine(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ routine: routineView(routine), ...(secret ? { secret } : {}) }, 201);
    })
    .openapi(routes.get.route, async (c) => {
      const { id, routine_id } = c.req.valid('param');
      return c.json({ routine: routineView(await getRoutine(deps, orgIdOf(c), id, routine_id)) }, 200);
    })
    .openapi(routes.update.route, async (c) => {
      const { id, routine_id } = c.req.valid('param');
      const { routine, secret } = await updateRoutine(deps, orgIdOf(c), id, routine_id, c.req.valid('json'));
      return c.json({ routine: routineView(routine), ...(secret ? { secret } : {}) }, 200);
    })
    .openapi(routes.remove.route, async (c) => {
      const { id, routine_id } = c.req.valid('param');
      await deleteRoutine(deps, orgIdOf(c), id, routine_id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.rotateSecret.route, async (c) => {
      const { id, routine_id } = c.req.valid('param');
      const keep = c.req.valid('json').keep_old_for_minutes ?? 0;
      const { routine, secret } = await rotateSecret(deps, orgIdOf(c), id, routine_id, keep);
      return c.json({ routine: routineView(routine), secret }, 200);
    })
    .openapi(routes.run.route, async (c) => {
      const { id, routine_id } = c.req.valid('param');
      const routine = await getRoutine(deps, orgIdOf(c), id, routine_id);
      await admitStart(deps, routine.id);
      const run = await startRun(deps, routine, newRun(deps, routine, { trigger: 'manual', userId: c.get('principal').userId }));
      return c.json({ run: runView(run) }, 202);
    })
    .openapi(routes.runs.route, async (c) => {
      const { id, routine_id } = c.req.valid('param');
      const routine = await getRoutine(deps, orgIdOf(c), id, routine_id);
      return c.json({ runs: (await listRuns(deps, routine)).map(runView) }, 200);
    });
}
