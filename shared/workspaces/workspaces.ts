import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { slugify } from '../platform/ids.js';
import { keys } from '../platform/keys.js';
import { onConditionFailed } from '../platform/table.js';
import { claimUniqueId } from '../platform/unique.js';
import { getOrganisationItem } from '../org/organisations.js';
import { findOrCreateTeam, getTeam } from '../org/teams.js';
import type { Team } from '../org/schemas.js';
import {
  WORKSPACE_DEFAULTS,
  type CreateWorkspaceInput,
  type UpdateWorkspaceInput,
  type WorkspaceListItem,
  type WorkspaceSummary,
} from './schemas.js';
import { monthOf } from '../platform/clock.js';
import { counterNames, counterOf } from './counters.js';
import { roundUsd } from './stats.js';
import { readDayCounts } from './day-counts.js';
import { approvalSettingOf, type ApprovalSetting } from '../approvals/setting.js';
import { toolSearchSettingOf, type ToolSearchSetting } from '../tool-search/setting.js';

/**
 * The workspace item (`WS#<id>` / `META`, listed through GSI1 `ORG#<org>#WS`): configuration,
 * child counts, and the counters of `counters.ts`, all kept by atomic ADDs.
 */
export interface WorkspaceItem
  extends Omit<WorkspaceSummary, 'max_tokens_per_query' | 'tool_timeout_seconds' | 'tool_budget_seconds' | 'approval' | 'tool_search'> {
  pk: string;
  sk: string;
  gsi1pk: string;
  gsi1sk: string;
  org_id: string;
  /** Role → JSON-encoded array of tool-name globs (docs/api-decisions.md, Query and conversations: Permissions). */
  permissions: Record<string, string>;
  connection_count?: number;
  tool_count?: number;
  knowledge_count?: number;
  guardrail_count?: number;
  /** Absent on workspaces made before these limits existed: read as null. */
  max_tokens_per_query?: number | null;
  tool_timeout_seconds?: number | null;
  /** Absent on workspaces made before the budget existed: read as the default (`toolBudgetSecondsOf`). */
  tool_budget_seconds?: number;
  /** Which tool calls need a person's approval (absent on older workspaces: none). */
  approval?: ApprovalSetting | null;
  /** When the model searches the tools (absent on older workspaces: the default, `toolSearchSettingOf`). */
  tool_search?: ToolSearchSetting | null;
  updated_at: string;
}

const DEFAULT_PERMISSIONS: Record<string, string> = { admin: '["*"]', member: '["*"]' };

/** How long one query of the workspace may wait on its tools in all, in seconds. */
export function toolBudgetSecondsOf(item: Pick<WorkspaceItem, 'tool_budget_seconds'>): number {
  return item.tool_budget_seconds ?? WORKSPACE_DEFAULTS.tool_budget_seconds;
}

export function toSummary(item: WorkspaceItem): WorkspaceSummary {
  return {
    id: item.id,
    name: item.name,
    status: item.status,
    team: item.team,
    team_id: item.team_id,
    model: item.model,
    system_prompt: item.system_prompt,
    cold_timeout_minutes: item.cold_timeout_minutes,
    close_timeout_minutes: item.close_timeout_minutes,
    max_tool_rounds: item.max_tool_rounds,
    max_tokens_per_query: item.max_tokens_per_query ?? null,
    tool_timeout_seconds: item.tool_timeout_seconds ?? null,
    tool_budget_seconds: toolBudgetSecondsOf(item),
    approval: approvalSettingOf(item),
    tool_search: toolSearchSettingOf(item),
    created_at: item.created_at,
  };
}

const workspaceNotFound = (id: string) => new NotFoundError(`workspace ${id} not found`);

/**
 * Workspace statuses: `active`; `archived` (kept, answers no queries, hidden from the default list);
 * `deleted` (what stays of a deleted workspace: its id, so it is not handed out again; `retire.ts`).
 */
export const WORKSPACE_STATUS = { active: 'active', archived: 'archived', deleted: 'deleted' } as const;

/** The item if it is a workspace of `orgId`; another organisation's workspace is 404, like a missing or deleted one. */
export function ownedWorkspace(item: object | undefined, orgId: string, workspaceId: string): WorkspaceItem {
  const workspace = item as WorkspaceItem | undefined;
  if (!workspace || workspace.sk !== keys.workspaceSortKey || workspace.org_id !== orgId || workspace.status === WORKSPACE_STATUS.deleted) {
    throw workspaceNotFound(workspaceId);
  }
  return workspace;
}

/** An archived workspace answers no queries (nor goes on with a paused one): 409 saying so. */
export function assertServing(workspace: WorkspaceItem): void {
  if (workspace.status === WORKSPACE_STATUS.archived) {
    throw new ConflictError(`workspace ${workspace.name} is archived: it answers no queries until an admin unarchives it`);
  }
}

export async function getWorkspaceItem(deps: Deps, orgId: string, workspaceId: string): Promise<WorkspaceItem> {
  return ownedWorkspace(await deps.table.get<WorkspaceItem>(keys.workspace(orgId, workspaceId)), orgId, workspaceId);
}

async function resolveTeam(deps: Deps, orgId: string, input: CreateWorkspaceInput): Promise<Team> {
  if (input.team_id) {
    const team = await getTeam(deps, orgId, input.team_id);
    if (!team) throw new ValidationError('invalid request body', [{ path: 'team_id', message: 'no such team in your organisation' }]);
    return team;
  }
  if (input.team_name) return findOrCreateTeam(deps, orgId, input.team_name);
  const org = await getOrganisationItem(deps, orgId);
  const team = await getTeam(deps, orgId, org.default_team_id);
  if (!team) throw new Error(`organisation ${orgId} has lost its default team`);
  return team;
}

/**
 * `POST /api/workspaces`. The id `ws-<slug of name>` is unique within the organisation (its
 * partition key carries the organisation), so it never tells whether another organisation has a
 * workspace of that name: the workspace item itself is written by a conditional put, with a suffix
 * when the organisation already has the id (`ws-support-2`).
 */
export async function createWorkspace(deps: Deps, orgId: string, input: CreateWorkspaceInput): Promise<WorkspaceItem> {
  const team = await resolveTeam(deps, orgId, input);
  const now = deps.clock.now().toISOString();
  const base = `ws-${slugify(input.name) || 'workspace'}`;
  const itemFor = (id: string): WorkspaceItem => ({
    ...keys.workspace(orgId, id),
    ...keys.workspacesIndexEntry(orgId, now, id),
    id,
    org_id: orgId,
    name: input.name,
    status: WORKSPACE_STATUS.active,
    team: team.name,
    team_id: team.id,
    model: WORKSPACE_DEFAULTS.model,
    system_prompt: input.system_prompt ?? '',
    cold_timeout_minutes: WORKSPACE_DEFAULTS.cold_timeout_minutes,
    close_timeout_minutes: WORKSPACE_DEFAULTS.close_timeout_minutes,
    max_tool_rounds: WORKSPACE_DEFAULTS.max_tool_rounds,
    max_tokens_per_query: null,
    tool_timeout_seconds: null,
    tool_budget_seconds: WORKSPACE_DEFAULTS.tool_budget_seconds,
    permissions: { ...DEFAULT_PERMISSIONS },
    connection_count: 0,
    tool_count: 0,
    knowledge_count: 0,
    guardrail_count: 0,
    created_at: now,
    updated_at: now,
  });
  const id = await claimUniqueId(deps.table, `ws@${orgId}`, base, itemFor);
  return itemFor(id);
}

/**
 * `GET /api/workspaces`: one Query on GSI1 for the workspaces, one BatchGet (per 100) of today's
 * counters. Archived ones only when asked for (a deleted one has left the index).
 */
export async function listWorkspaces(deps: Deps, orgId: string, includeArchived = false): Promise<WorkspaceListItem[]> {
  const now = deps.clock.now();
  // One round: the workspaces, and the organisation's day counts of this month (queries today, cost).
  const [listed, dayCounts] = await Promise.all([
    deps.table.queryAll<WorkspaceItem>({ index: 'gsi1', pk: keys.workspacesIndex(orgId) }),
    readDayCounts(deps, orgId, now),
  ]);
  const items = listed.filter((item) =>
    item.status === WORKSPACE_STATUS.deleted ? false : includeArchived || item.status !== WORKSPACE_STATUS.archived,
  );
  const month = monthOf(now);
  return items.map((item) => {
    return {
      id: item.id,
      name: item.name,
      team: item.team,
      team_id: item.team_id,
      status: item.status,
      model: item.model,
      connection_count: item.connection_count ?? 0,
      tool_count: item.tool_count ?? 0,
      knowledge_count: item.knowledge_count ?? 0,
      queries_today: dayCounts.get(item.id)?.queriesToday ?? 0,
      // What the workspace item counted before its counters moved (no longer changed), and the days since.
      cost_mtd: roundUsd(counterOf(item, counterNames.month(month, 'cost_usd')) + (dayCounts.get(item.id)?.costMonth ?? 0)),
      created_at: item.created_at,
    };
  });
}

const UPDATABLE = [
  'name',
  'model',
  'system_prompt',
  'cold_timeout_minutes',
  'close_timeout_minutes',
  'max_tool_rounds',
  'max_tokens_per_query',
  'tool_timeout_seconds',
  'tool_budget_seconds',
  'approval',
  'tool_search',
] as const satisfies readonly (keyof UpdateWorkspaceInput)[];

/** `PUT /api/workspaces/:id`: one conditional UpdateItem (the workspace must exist in the caller's organisation). */
export async function updateWorkspace(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  input: UpdateWorkspaceInput,
): Promise<WorkspaceSummary> {
  const names: Record<string, string> = { '#updated_at': 'updated_at' };
  const values: Record<string, unknown> = { ':updated_at': deps.clock.now().toISOString() };
  const assignments = ['#updated_at = :updated_at'];
  for (const field of UPDATABLE) {
    const value = input[field];
    if (value === undefined) continue;
    names[`#${field}`] = field;
    values[`:${field}`] = value;
    assignments.push(`#${field} = :${field}`);
  }
  names['#org_id'] = 'org_id';
  values[':org_id'] = orgId;
  names['#status'] = 'status';
  values[':deleted'] = WORKSPACE_STATUS.deleted;
  const item = await onConditionFailed(
    deps.table.update<WorkspaceItem>(keys.workspace(orgId, workspaceId), {
      update: `SET ${assignments.join(', ')}`,
      condition: 'attribute_exists(pk) AND #org_id = :org_id AND #status <> :deleted',
      names,
      values,
    }),
    () => workspaceNotFound(workspaceId),
  );
  return toSummary(item);
}

export const PERMISSION_ROLES = ['admin', 'member'] as const;

/** `PUT /api/workspaces/:id/permissions/:role`: the tool-name globs a role may use, stored JSON-encoded. */
export async function setPermission(deps: Deps, orgId: string, workspaceId: string, role: string, toolPatterns: string[]) {
  const encoded = JSON.stringify(toolPatterns);
  await onConditionFailed(
    deps.table.update(keys.workspace(orgId, workspaceId), {
      update: 'SET #permissions.#role = :patterns, updated_at = :at',
      condition: 'attribute_exists(pk) AND org_id = :org AND #status <> :deleted',
      names: { '#permissions': 'permissions', '#role': role, '#status': 'status' },
      values: { ':patterns': encoded, ':at': deps.clock.now().toISOString(), ':org': orgId, ':deleted': WORKSPACE_STATUS.deleted },
    }),
    () => workspaceNotFound(workspaceId),
  );
  return { role, tool_patterns: encoded };
}
