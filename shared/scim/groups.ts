import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import {
  userKey,
  createTeam,
  deleteTeam,
  getTeam,
  listTeams,
  renameTeam,
  addTeamMembers,
  removeTeamMembers,
  teamMemberIds,
  type UserItem,
  type Team,
} from '../org/index.js';
import { scimRefusal } from './errors.js';
import { parseEquality, parsePath } from './filter.js';
import { pageOf, type Page } from './paging.js';
import { SCHEMA, ScimMembers, type ScimGroupInput, type ScimListQuery, type ScimPatchOperation } from './schemas.js';

/*
 * SCIM Groups are the organisation's teams, with members. A member must be a user of the same
 * organisation (400 otherwise: an id of another organisation's user is unknown here). Renames claim
 * the new name as creating a team does.
 */

export interface ScimGroup {
  schemas: string[];
  id: string;
  displayName: string;
  members?: { value: string; display: string; $ref: string }[];
  meta: { resourceType: 'Group'; location: string };
}

interface Shown {
  baseUrl: string;
  /** `excludedAttributes=members`: the group without its member list (one read fewer per group). */
  withoutMembers?: boolean;
}

async function groupOf(deps: Deps, orgId: string, team: Team, shown: Shown): Promise<ScimGroup> {
  const group: ScimGroup = {
    schemas: [SCHEMA.group],
    id: team.id,
    displayName: team.name,
    meta: { resourceType: 'Group', location: `${shown.baseUrl}/Groups/${team.id}` },
  };
  if (shown.withoutMembers) return group;
  const ids = await teamMemberIds(deps, orgId, team.id);
  const users = await deps.table.batchGet<UserItem>(ids.map((id) => userKey(orgId, id)));
  group.members = users.map((user) => ({ value: user.id, display: user.email, $ref: `${shown.baseUrl}/Users/${user.id}` }));
  return group;
}

async function teamOf(deps: Deps, orgId: string, groupId: string): Promise<Team> {
  const team = await getTeam(deps, orgId, groupId);
  if (!team) throw new NotFoundError(`group ${groupId.slice(0, 100)} not found`);
  return team;
}

/** Member ids that are users of this organisation, or 400 naming the first that is not. */
async function ownUsers(deps: Deps, orgId: string, ids: string[]): Promise<string[]> {
  const unique = [...new Set(ids)];
  const found = new Set((await deps.table.batchGet<UserItem>(unique.map((id) => userKey(orgId, id)))).map((user) => user.id));
  const stranger = unique.find((id) => !found.has(id));
  if (stranger) throw scimRefusal('invalid', `member ${stranger.slice(0, 100)} is not a user of this organisation`);
  return unique;
}

export async function getScimGroup(deps: Deps, orgId: string, groupId: string, shown: Shown): Promise<ScimGroup> {
  return groupOf(deps, orgId, await teamOf(deps, orgId, groupId), shown);
}

export async function listScimGroups(deps: Deps, orgId: string, query: ScimListQuery, shown: Shown): Promise<Page<ScimGroup>> {
  let teams = await listTeams(deps, orgId);
  if (query.filter) {
    const { attribute, value } = parseEquality(query.filter, ['displayname', 'id']);
    teams = teams.filter((team) => (attribute === 'id' ? team.id === value : team.name.toLowerCase() === value.toLowerCase()));
  }
  const page = pageOf(teams, query, (team) => team);
  return { ...page, Resources: await Promise.all(page.Resources.map((team) => groupOf(deps, orgId, team, shown))) };
}

export async function createScimGroup(deps: Deps, orgId: string, input: ScimGroupInput, shown: Shown): Promise<ScimGroup> {
  const members = await ownUsers(
    deps,
    orgId,
    (input.members ?? []).map((member) => member.value),
  );
  const team = await createTeam(deps, orgId, input.displayName);
  await addTeamMembers(deps, orgId, team.id, members);
  return groupOf(deps, orgId, team, shown);
}

/** `PUT /Groups/:id`: the name and the whole member list. */
export async function replaceScimGroup(
  deps: Deps,
  orgId: string,
  groupId: string,
  input: ScimGroupInput,
  shown: Shown,
): Promise<ScimGroup> {
  await teamOf(deps, orgId, groupId);
  const wanted = await ownUsers(
    deps,
    orgId,
    (input.members ?? []).map((member) => member.value),
  );
  const team = await renameTeam(deps, orgId, groupId, input.displayName);
  const current = await teamMemberIds(deps, orgId, groupId);
  await removeTeamMembers(
    deps,
    orgId,
    groupId,
    current.filter((id) => !wanted.includes(id)),
  );
  await addTeamMembers(
    deps,
    orgId,
    groupId,
    wanted.filter((id) => !current.includes(id)),
  );
  return groupOf(deps, orgId, team, shown);
}

export async function deleteScimGroup(deps: Deps, orgId: string, groupId: string): Promise<void> {
  await deleteTeam(deps, orgId, groupId);
}

function memberIdsOf(value: unknown): string[] {
  const parsed = ScimMembers.safeParse(Array.isArray(value) ? value : [value]);
  if (!parsed.success) throw scimRefusal('invalid', 'members must be a list of { value: <user id> }');
  return parsed.data.map((member) => member.value);
}

/** One operation on a group: its name, or its members added, removed or replaced. */
async function applyToGroup(deps: Deps, orgId: string, team: Team, operation: ScimPatchOperation): Promise<Team> {
  const { op, value } = operation;
  if (!operation.path) {
    // Okta's replace without a path: `{ id, displayName }` (and members, if any).
    if (typeof value !== 'object' || value === null) throw scimRefusal('invalid', 'an operation without a path needs an object value');
    let changed = team;
    for (const [key, part] of Object.entries(value)) changed = await applyToGroup(deps, orgId, changed, { op, path: key, value: part });
    return changed;
  }
  const path = parsePath(operation.path);
  if (path.attribute === 'displayname') {
    if (op === 'remove') throw scimRefusal('immutable', 'displayName cannot be removed');
    if (typeof value !== 'string' || !value.trim() || value.trim().length > 100) {
      throw scimRefusal('invalid', 'displayName must be a name of 1 to 100 characters');
    }
    return renameTeam(deps, orgId, team.id, value.trim());
  }
  if (path.attribute !== 'members') return team;
  if (op === 'remove') {
    // `members[value eq "usr_1"]` (Okta), or `members` with a list of values (Entra ID), or every member.
    const ids = path.filter ? [path.filter.value] : value === undefined ? await teamMemberIds(deps, orgId, team.id) : memberIdsOf(value);
    await removeTeamMembers(deps, orgId, team.id, ids);
    return team;
  }
  const ids = await ownUsers(deps, orgId, memberIdsOf(value));
  if (op === 'replace') {
    const current = await teamMemberIds(deps, orgId, team.id);
    await removeTeamMembers(
      deps,
      orgId,
      team.id,
      current.filter((id) => !ids.includes(id)),
    );
  }
  await addTeamMembers(deps, orgId, team.id, ids);
  return team;
}

/** `PATCH /Groups/:id`: the operations in order. Answers 204 unless the provider asked for the group. */
export async function patchScimGroup(deps: Deps, orgId: string, groupId: string, operations: ScimPatchOperation[]): Promise<Team> {
  let team = await teamOf(deps, orgId, groupId);
  for (const operation of operations) team = await applyToGroup(deps, orgId, team, operation);
  return team;
}
