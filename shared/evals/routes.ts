import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import { NotFoundError } from '../platform/errors.js';
import { evalRouteDefinitions as routes } from './route-definitions.js';
import { runSummary, startRun } from './runs.js';
import { createEval, deleteEval, getEval, getRun, listEvals, listRuns, runResults, updateEval, type EvalItem } from './store.js';

const view = (item: EvalItem) => ({ id: item.id, name: item.name, cases: item.cases });

/** `/api/workspaces/:id/evals…` (API function). */
export function evalRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list.route, async (c) => {
      const evals = await listEvals(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json(
        { evals: evals.map((item) => ({ id: item.id, name: item.name, case_count: item.cases.length, last_run: item.last_run ?? null })) },
        200,
      );
    })
    .openapi(routes.create.route, async (c) =>
      c.json({ eval: view(await createEval(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'))) }, 201),
    )
    .openapi(routes.get.route, async (c) => {
      const { id, eval_id } = c.req.valid('param');
      return c.json({ eval: view(await getEval(deps, orgIdOf(c), id, eval_id)) }, 200);
    })
    .openapi(routes.update.route, async (c) => {
      const { id, eval_id } = c.req.valid('param');
      return c.json({ eval: view(await updateEval(deps, orgIdOf(c), id, eval_id, c.req.valid('json'))) }, 200);
    })
    .openapi(routes.remove.route, async (c) => {
      const { id, eval_id } = c.req.valid('param');
      await deleteEval(deps, orgIdOf(c), id, eval_id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.start.route, async (c) => {
      const { id, eval_id } = c.req.valid('param');
      const evaluation = await getEval(deps, orgIdOf(c), id, eval_id);
      const run = await startRun(deps, evaluation, c.req.valid('json').overrides ?? {}, c.get('principal').role);
      return c.json({ run: { id: run.id, status: 'queued' as const } }, 202);
    })
    .openapi(routes.runs.route, async (c) => {
      const { id, eval_id } = c.req.valid('param');
      await getEval(deps, orgIdOf(c), id, eval_id);
      return c.json({ runs: (await listRuns(deps, eval_id)).map(runSummary) }, 200);
    })
    .openapi(routes.run.route, async (c) => {
      const { id, eval_id, run_id } = c.req.valid('param');
      await getEval(deps, orgIdOf(c), id, eval_id);
      const run = await getRun(deps, eval_id, run_id);
      if (run.workspace_id !== id) throw new NotFoundError(`run ${run_id} not found`);
      const results = (await runResults(deps, eval_id, run_id)).map(({ index: _index, pk: _pk, sk: _sk, ...result }) => result);
      return c.json({ run: { ...runSummary(run), results } }, 200);
    });
}
