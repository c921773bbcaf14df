import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import type { Deps } from '../deps.js';
import type { AppEnv } from '../http/router.js';
import { NotFoundError, PayloadTooLargeError, ValidationError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { deliveryNames, deliveryOf, deliveryRemembered, runKey } from './entities.js';
import { admitStart } from './limits.js';
import { newRun, runView, startRun, type RunItem } from './runs.js';
import { findRoutine, type RoutineItem } from './store.js';
import { verifySignature } from './signature.js';

/*
 * `POST /hooks/routines/:routine_id` (CONTRACT.md, "Routines"; docs/routines.md): public, each
 * request signed with the routine's secret over its raw body, which is counted as it arrives and
 * refused past 256 KB (413) before it is read whole. A delivery id is remembered 24 hours: the same
 * id again starts nothing and answers the run it started (200). Past the routine's rate, 429.
 */

export const MAX_HOOK_BODY_BYTES = 256 * 1024;

/**
 * The run a delivery id already started, made if its start was cut short (the id remembered, the
 * run not stored): that start is counted as a new one (`admitStart`).
 */
async function runOfDelivery(deps: Deps, routine: RoutineItem, deliveryId: string, payload: string): Promise<RunItem | undefined> {
  const seen = await deps.table.get<{ run_id: string }>(deliveryOf(routine.id, deliveryId), true);
  if (!seen) return undefined;
  const run = await deps.table.get<RunItem>(runKey(routine.id, seen.run_id), true);
  if (run) return run;
  await admitStart(deps, routine.id);
  return startRun(deps, routine, newRun(deps, routine, { trigger: 'webhook', deliveryId, payload }, seen.run_id));
}

/** A delivery of a routine's webhook, its signature checked: its run, new (202) or the one the same delivery id started (200). */
async function deliver(deps: Deps, routine: RoutineItem, deliveryId: string, payload: string): Promise<{ run: RunItem; fresh: boolean }> {
  const run = newRun(deps, routine, { trigger: 'webhook', deliveryId, payload });
  const nowSeconds = Math.floor(deps.clock.now().getTime() / 1000);
  const { item, write } = deliveryRemembered(routine.id, deliveryId, run.id, nowSeconds);
  const remembered = await unlessConditionFailed(
    deps.table.put(item, write).then(() => true),
    false,
  );
  if (!remembered) {
    const earlier = await runOfDelivery(deps, routine, deliveryId, payload);
    if (earlier) return { run: earlier, fresh: false };
  }
  try {
    await admitStart(deps, routine.id);
  } catch (error) {
    // Refused (429): the delivery is forgotten, so sending it again is a new start, counted again.
    await unlessConditionFailed(deps.table.delete(deliveryOf(routine.id, deliveryId), deliveryNames(run.id)), undefined);
    throw error;
  }
  return { run: await startRun(deps, routine, run), fresh: true };
}

export function routineHookRoutes(deps: Deps) {
  const app = new Hono<AppEnv>();
  app.post(
    '/routines/:routine_id',
    bodyLimit({
      maxSize: MAX_HOOK_BODY_BYTES,
      onError: () => {
        throw new PayloadTooLargeError(`a webhook's body may be at most ${MAX_HOOK_BODY_BYTES / 1024} KB`);
      },
    }),
    async (c) => {
      const routineId = c.req.param('routine_id');
      const routine = routineId.length <= 200 ? await findRoutine(deps, routineId) : undefined;
      if (!routine?.webhook) throw new NotFoundError(`routine ${routineId} not found`);
      const raw = Buffer.from(await c.req.arrayBuffer());
      const deliveryId = await verifySignature(deps, routine, raw, (name) => c.req.header(name));
      if (!routine.enabled) throw new ValidationError('this routine is paused', [{ path: 'enabled', message: 'the routine is paused' }]);
      const { run, fresh } = await deliver(deps, routine, deliveryId, raw.toString('utf8'));
      return c.json({ run: runView(run) }, fresh ? 202 : 200);
    },
  );
  return app;
}
