import { ownerOf } from '../conversations/owners.js';
import type { Deps } from '../deps.js';
import { createRouter } from '../http/router.js';
import { runQuery, type QueryTiming } from './query.js';
import { queryRouteDefinitions } from './route-definitions.js';

function serverTiming(timing: QueryTiming): string {
  const ms = (value: number) => value.toFixed(1);
  return `overhead;dur=${ms(timing.overheadMs)}, model;dur=${ms(timing.modelMs)}, tools;dur=${ms(timing.toolMs)}, total;dur=${ms(timing.totalMs)}`;
}

export function queryRoutes(deps: Deps) {
  return createRouter().openapi(queryRouteDefinitions.query.route, async (c) => {
    const principal = c.get('principal');
    const { response, timing } = await runQuery(
      deps,
      {
        orgId: principal.orgId,
        role: principal.role,
        userName: principal.name,
        consumerType: 'api',
        channel: null,
        owner: ownerOf(principal),
      },
      c.req.valid('param').id,
      c.req.valid('json'),
    );
    c.header('Server-Timing', serverTiming(timing));
    return c.json(response, 200);
  });
}
