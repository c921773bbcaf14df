import { ownerOf } from '../conversations/index.js';
import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { streamQuery, wantsEventStream } from '../http/sse.js';
import { runQuery, type Caller, type QueryListener, type QueryTiming } from './query.js';
import { queryRouteDefinitions } from './route-definitions.js';

function serverTiming(timing: QueryTiming): string {
  const ms = (value: number) => value.toFixed(1);
  return `overhead;dur=${ms(timing.overheadMs)}, model;dur=${ms(timing.modelMs)}, tools;dur=${ms(timing.toolMs)}, total;dur=${ms(timing.totalMs)}`;
}

export function queryRoutes(deps: Deps) {
  return createRouter().openapi(queryRouteDefinitions.query.route, async (c) => {
    const principal = c.get('principal');
    const caller: Caller = {
      orgId: principal.orgId,
      role: principal.role,
      userName: principal.name,
      consumerType: 'api',
      channel: null,
      owner: ownerOf(principal),
    };
    const ask = (listener?: QueryListener) => runQuery(deps, caller, c.req.valid('param').id, c.req.valid('json'), listener);
    // The streaming form: the same query, its events as they happen, the same answer last (`done`).
    if (wantsEventStream(c)) return streamQuery(c, deps.logger, ask, (result) => result.response);
    const { response, timing } = await ask();
    c.header('Server-Timing', serverTiming(timing));
    return c.json(response, 200);
  });
}
