import { channelsOf } from '../chat/index.js';
import { activityFiltersFor } from './own-activity.js';
import type { Deps } from '../deps.js';
import { createRouter, orgIdOf } from '../http/router.js';
import {
  listActivity,
  exportActivity,
  readWeekCounters,
  workspaceStatsOf,
  createWorkspace,
  getWorkspaceItem,
  listWorkspaces,
  setPermission,
  toSummary,
  updateWorkspace,
} from '../workspaces/index.js';
import {
  listCompliance,
  connectionsFor,
  listConnections,
  listConsumers,
  listKnowledge,
  permissionsOf,
  readWorkspace,
  withChannels,
} from './children.js';
import { readDashboard } from './dashboard.js';
import { archiveWorkspace, deleteWorkspace, unarchiveWorkspace } from './retire.js';

import { workspaceRouteDefinitions as routes } from './route-definitions.js';

export function workspaceRoutes(deps: Deps) {
  return createRouter()
    .openapi(routes.list.route, async (c) => {
      const includeArchived = c.req.valid('query').include_archived === 'true';
      return c.json({ workspaces: await listWorkspaces(deps, orgIdOf(c), includeArchived) }, 200);
    })
    .openapi(routes.create.route, async (c) => {
      const workspace = await createWorkspace(deps, orgIdOf(c), c.req.valid('json'));
      return c.json({ id: workspace.id, name: workspace.name, status: workspace.status }, 201);
    })
    .openapi(routes.summary.route, async (c) => {
      const item = await getWorkspaceItem(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ workspace: toSummary(item) }, 200);
    })
    .openapi(routes.detail.route, async (c) => {
      const { id } = c.req.valid('param');
      const orgId = orgIdOf(c);
      const now = deps.clock.now();
      // One round: every key is known from the URL and the caller's org. `readWorkspace` checks
      // the workspace is the org's (404 otherwise); the other reads are under the org's own keys.
      const [{ workspace, children }, channels, days] = await Promise.all([
        readWorkspace(deps, orgId, id),
        channelsOf(deps, orgId, id),
        readWeekCounters(deps, orgId, id, now),
      ]);
      const stats = workspaceStatsOf(days, now);
      const consumers = withChannels(children.consumers, channels);
      const connections = connectionsFor(c.get('principal').role, children.connections);
      return c.json(
        { workspace: toSummary(workspace), ...children, connections, consumers, permissions: permissionsOf(workspace), stats },
        200,
      );
    })
    .openapi(routes.update.route, async (c) => {
      const workspace = await updateWorkspace(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('json'));
      return c.json({ workspace }, 200);
    })
    .openapi(routes.archive.route, async (c) =>
      c.json({ workspace: await archiveWorkspace(deps, orgIdOf(c), c.req.valid('param').id) }, 200),
    )
    .openapi(routes.unarchive.route, async (c) =>
      c.json({ workspace: await unarchiveWorkspace(deps, orgIdOf(c), c.req.valid('param').id) }, 200),
    )
    .openapi(routes.remove.route, async (c) => {
      await deleteWorkspace(deps, orgIdOf(c), c.req.valid('param').id);
      return c.json({ status: 'ok' as const }, 200);
    })
    .openapi(routes.dashboard.route, async (c) =>
      c.json(await readDashboard(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('query')), 200),
    )
    .openapi(routes.activity.route, async (c) => {
      const { id } = c.req.valid('param');
      const { filters, workspace } = await activityFiltersFor(deps, c.get('principal'), id, c.req.valid('query'));
      return c.json(await listActivity(deps, orgIdOf(c), id, filters, workspace), 200);
    })
    .openapi(routes.activityCsv.route, async (c) => {
      const { id } = c.req.valid('param');
      const { filters, workspace } = await activityFiltersFor(deps, c.get('principal'), id, c.req.valid('query'));
      const { csv, truncated, filename } = await exportActivity(deps, orgIdOf(c), id, filters, workspace);
      return c.body(csv, 200, {
        'content-type': 'text/csv; charset=utf-8',
        'content-disposition': `attachment; filename="${filename}"`,
        'x-truncated': String(truncated),
      });
    })
    .openapi(routes.connections.route, async (c) => c.json(await listConnections(deps, c.get('principal'), c.req.valid('param').id), 200))
    .openapi(routes.consumers.route, async (c) => c.json(await listConsumers(deps, orgIdOf(c), c.req.valid('param').id), 200))
    .openapi(routes.knowledge.route, async (c) => c.json(await listKnowledge(deps, orgIdOf(c), c.req.valid('param').id), 200))
    .openapi(routes.permission.route, async (c) => {
      const { id, role } = c.req.valid('param');
      const permission = await setPermission(deps, orgIdOf(c), id, role, c.req.valid('json').tool_patterns);
      return c.json({ permission }, 200);
    })
    .openapi(routes.compliance.route, async (c) =>
      c.json(await listCompliance(deps, orgIdOf(c), c.req.valid('param').id, c.req.valid('query')), 200),
    );
}
