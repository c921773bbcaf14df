import { putNew } from '../platform/updates.js';
import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { emptyTeam } from './team-members.js';
import { newId } from '../platform/ids.js';
import { organisationKey } from './entities.js';
import {
  ownTeamNameCondition,
  type TeamItem,
  teamKey,
  type TeamNameItem,
  teamNameKey,
  teamNameUpdate,
  teamsOfOrganisation,
} from './team-entities.js';
import type { Team } from './schemas.js';

export async function listTeams(deps: Deps, orgId: string): Promise<Team[]> {
  const items = await deps.table.queryAll<TeamItem>(teamsOfOrganisation(orgId));
  return items.map(({ id, name }) => ({ id, name }));
}

export async function getTeam(deps: Deps, orgId: string, teamId: string): Promise<Team | undefined> {
  const item = await deps.table.get<TeamItem>(teamKey(orgId, teamId));
  return item && { id: item.id, name: item.name };
}

/** Writes the team item a name claim stands for (idempotent: same id, same content). */
async function writeTeamOfClaim(deps: Deps, orgId: string, claim: TeamNameItem): Promise<Team> {
  await deps.table.put({ ...teamKey(orgId, claim.team_id), id: claim.team_id, name: claim.name, created_at: claim.created_at });
  return { id: claim.team_id, name: claim.name };
}

/**
 * Creates a team whose name is new in the organisation (names compare case-insensitively).
 * The name claim is the commit point and holds everything the team item holds, so a team item
 * that is missing after a crash is rewritten from it. Returns undefined if the name is taken.
 */
async function claimTeam(deps: Deps, orgId: string, name: string): Promise<Team | undefined> {
  const now = deps.clock.now();
  const claim: TeamNameItem = { ...teamNameKey(orgId, name), team_id: newId('team', now), name, created_at: now.toISOString() };
  if (!(await putNew(deps.table, { ...claim }))) return undefined;
  return writeTeamOfClaim(deps, orgId, claim);
}

/** `POST /api/teams`. */
export async function createTeam(deps: Deps, orgId: string, name: string): Promise<Team> {
  const team = await claimTeam(deps, orgId, name);
  if (!team) throw new ConflictError(`a team named "${name}" already exists`, { code: 'team_name_taken' });
  return team;
}

/** The team with this name (case-insensitive), created if there is none. Safe under concurrent calls. */
export async function findOrCreateTeam(deps: Deps, orgId: string, name: string): Promise<Team> {
  for (;;) {
    const claim = await deps.table.get<TeamNameItem>(teamNameKey(orgId, name), true);
    if (claim) return (await getTeam(deps, orgId, claim.team_id)) ?? writeTeamOfClaim(deps, orgId, claim);
    const created = await claimTeam(deps, orgId, name);
    if (created) return created;
    // Another request claimed the name between our read and our write: read its claim.
  }
}

/**
 * Renames a team: the new name claimed first (409 when another team has it), then the team item,
 * then the old claim given up. Workspaces show the name they were made with until they are edited.
 */
export async function renameTeam(deps: Deps, orgId: string, teamId: string, name: string): Promise<Team> {
  const team = await getTeam(deps, orgId, teamId);
  if (!team) throw new NotFoundError(`team ${teamId} not found`);
  if (team.name === name) return team;
  const sameClaim = team.name.trim().toLowerCase() === name.trim().toLowerCase();
  const created_at = deps.clock.now().toISOString();
  if (!sameClaim && !(await putNew(deps.table, { ...teamNameKey(orgId, name), team_id: teamId, name, created_at }))) {
    throw new ConflictError(`a team named "${name}" already exists`, { code: 'team_name_taken' });
  }
  if (sameClaim) await deps.table.put({ ...teamNameKey(orgId, name), team_id: teamId, name, created_at });
  const { key, input } = teamNameUpdate(orgId, teamId, name);
  await deps.table.update(key, input);
  if (!sameClaim) await giveUpName(deps, orgId, teamId, team.name);
  return { id: teamId, name };
}

/** Removes a team and its memberships; the organisation's default team stays (new workspaces go to it). */
export async function deleteTeam(deps: Deps, orgId: string, teamId: string): Promise<void> {
  const [team, org] = await Promise.all([
    getTeam(deps, orgId, teamId),
    deps.table.get<{ default_team_id?: string }>(organisationKey(orgId)),
  ]);
  if (!team) throw new NotFoundError(`team ${teamId} not found`);
  if (org?.default_team_id === teamId)
    throw new ConflictError("the organisation's default team cannot be removed", { code: 'default_team_kept' });
  await emptyTeam(deps, orgId, teamId);
  await deps.table.delete(teamKey(orgId, teamId));
  await giveUpName(deps, orgId, teamId, team.name);
}

/** A team's name claim removed, if it is still that team's. */
async function giveUpName(deps: Deps, orgId: string, teamId: string, name: string): Promise<void> {
  await unlessConditionFailed(deps.table.delete(teamNameKey(orgId, name), ownTeamNameCondition(teamId)), undefined);
}
