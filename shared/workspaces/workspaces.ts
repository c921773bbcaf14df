import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError, ValidationError } from '../platform/errors.js';
import { slugify } from '../platform/ids.js';
import { onConditionFailed } from '../platform/table.js';
import { claimUniqueId } from '../platform/unique.js';
import { getOrganisationItem, findOrCreateTeam, getTeam, type Team } from '../org/index.js';
import {
  type ConversationVisibility,
  WORKSPACE_DEFAULTS,
  type CreateWorkspaceInput,
  type UpdateWorkspaceInput,
  type WorkspaceListItem,
  type WorkspaceSummary,
} from './schemas.js';
import { roundUsd } from './stats.js';
import { readDayCounts } from './day-counts.js';
import { approvalSettingOf, type ApprovalSetting } from './approval-setting.js';
import { toolSearchSettingOf, type ToolSearchSetting } from './tool-search-setting.js';
import {
  isWorkspaceItem,
  permissionUpdate,
  workspaceKey,
  workspaceListing,
  workspaceSettingsUpdate,
  workspacesOfOrganisation,
} from './entities.js';

/**
 * The workspace item (entities.ts, listed in its organisation's listings): configuration and the
 * counts of its children, kept by atomic ADDs.
 */
export interface WorkspaceItem
  extends Omit<
    WorkspaceSummary,
    'max_tokens_per_query' | 'tool_timeout_seconds' | 'tool_budget_seconds' | 'approval' | 'tool_search' | 'conversations_visible_to'
  > {
  pk: string;
  sk: string;
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
  /** Who reads its conversations besides admins (absent: `starter`, the default). */
  conversations_visible_to?: ConversationVisibility;
  updated_at: string;
}

const DEFAULT_PERMISSIONS: Record<string, string> = { admin: '["*"]', member: '["*"]' };

/** How long one query of the workspace may wait on its tools in all, in seconds. */
export function toolBudgetSecondsOf(item: Pick<WorkspaceItem, 'tool_budget_seconds'>): number {
  return item.tool_budget_seconds ?? WORKSPACE_DEFAULTS.tool_budget_seconds;
}

/** Who reads the workspace's conversations besides admins: `starter` unless an admin chose `team`. */
export function conversationVisibilityOf(item: Pick<WorkspaceItem, 'conversations_visible_to'>): ConversationVisibility {
  return item.conversations_visible_to === 'team' ? 'team' : 'starter';
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
    conversations_visible_to: conversationVisibilityOf(item),
    created_at: item.created_at,
  };
}

/** A workspace that is missing, deleted or another organisation's: 404, the same for each. */
export const workspaceNotFound = (id: string) => new NotFoundError(`workspace ${id} not found`);

/**
 * Workspace statuses: `active`; `archived` (kept, answers no queries, hidden from the default list);
 * `deleted` (what stays of a deleted workspace: its id, so it is not handed out again; `retire.ts`).
 */
export const WORKSPACE_STATUS = { active: 'active', archived: 'archived', deleted: 'deleted' } as const;

/** The item if it is a workspace of `orgId`; another organisation's workspace is 404, like a missing or deleted one. */
export function ownedWorkspace(item: object | undefined, orgId: string, workspaceId: string): WorkspaceItem {
  const workspace = item as WorkspaceItem | undefined;
  if (!workspace || !isWorkspaceItem(workspace) || workspace.org_id !== orgId || workspace.status === WORKSPACE_STATUS.deleted) {
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
  return ownedWorkspace(await deps.table.get<WorkspaceItem>(workspaceKey(orgId, workspaceId)), orgId, workspaceId);
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
    ...workspaceKey(orgId, id),
    ...workspaceListing(orgId, now, id),
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
 * `GET /api/workspaces`: one Query of the organisation's workspaces, alongside one Query per day
 * shard of this month's day items. Archived ones only when asked for (a deleted one has left the index).
 */
export async function listWorkspaces(deps: Deps, orgId: string, includeArchived = false): Promise<WorkspaceListItem[]> {
  const now = deps.clock.now();
  // One round: the workspaces, and the organisation's day counts of this month (queries today, cost).
  const [listed, dayCounts] = await Promise.all([
    deps.table.queryAll<WorkspaceItem>(workspacesOfOrganisation(orgId)),
    readDayCounts(deps, orgId, now),
  ]);
  const items = listed.filter((item) =>
    item.status === WORKSPACE_STATUS.deleted ? false : includeArchived || item.status !== WORKSPACE_STATUS.archived,
  );
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
      cost_mtd: roundUsd(dayCounts.get(item.id)?.costMonth ?? 0),
      created_at: item.created_at,
    };
  });
}

/** `PUT /api/workspaces/:id`: one conditional UpdateItem (the workspace must exist in the caller's organisation). */
export async function updateWorkspace(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  input: UpdateWorkspaceInput,
): Promise<WorkspaceSummary> {
  // Each setting given replaces what was (the body holds only the settings: zod strips the rest).
  const { key, input: update } = workspaceSettingsUpdate(orgId, workspaceId, input, deps.clock.now().toISOString());
  const item = await onConditionFailed(deps.table.update<WorkspaceItem>(key, update), () => workspaceNotFound(workspaceId));
  return toSummary(item);
}

export const PERMISSION_ROLES = ['admin', 'member'] as const;

/** `PUT /api/workspaces/:id/permissions/:role`: the tool-name globs a role may use, stored JSON-encoded. */
export async function setPermission(deps: Deps, orgId: string, workspaceId: string, role: string, toolPatterns: string[]) {
  const encoded = JSON.stringify(toolPatterns);
  const { key, input } = permissionUpdate(orgId, workspaceId, role, encoded, deps.clock.now().toISOString());
  await onConditionFailed(deps.table.update(key, input), () => workspaceNotFound(workspaceId));
  return { role, tool_patterns: encoded };
}
