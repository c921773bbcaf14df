import type { Deps } from '../deps.js';
import type { Store } from '../platform/store.js';
import { membershipKeys, membersOfTeam, teamsOfUser } from './team-entities.js';

/*
 * Who belongs to a team: what the identity provider's groups say (SCIM). A membership is two small
 * items in the organisation's partition, one listed by team (`TEAMMEMBER#<team>#<user>`) and one by
 * user (`USERTEAM#<user>#<team>`), so a team's members and a user's teams are each one query.
 */

interface MembershipItem {
  pk: string;
  sk: string;
  team_id: string;
  user_id: string;
  added_at: string;
}

/** The user ids of a team's members. */
export async function teamMemberIds(deps: Deps, orgId: string, teamId: string): Promise<string[]> {
  const items = await deps.table.queryAll<MembershipItem>(membersOfTeam(orgId, teamId));
  return items.map((item) => item.user_id);
}

/** The team ids a user belongs to. */
export async function userTeamIds(deps: Store, orgId: string, userId: string): Promise<string[]> {
  const items = await deps.table.queryAll<MembershipItem>(teamsOfUser(orgId, userId));
  return items.map((item) => item.team_id);
}

/** Adds users to a team (already members stay as they are). */
export async function addTeamMembers(deps: Deps, orgId: string, teamId: string, userIds: string[]): Promise<void> {
  const added_at = deps.clock.now().toISOString();
  const items = [...new Set(userIds)].flatMap((userId) =>
    membershipKeys(orgId, teamId, userId).map((key) => ({ ...key, team_id: teamId, user_id: userId, added_at })),
  );
  if (items.length > 0) await deps.table.batchPut(items);
}

/** Takes users out of a team (those who were not members are ignored). */
export async function removeTeamMembers(deps: Deps, orgId: string, teamId: string, userIds: string[]): Promise<void> {
  const keysOf = [...new Set(userIds)].flatMap((userId) => membershipKeys(orgId, teamId, userId));
  // A few deletes at a time: a group of thousands is not thousands of writes at once.
  for (let start = 0; start < keysOf.length; start += 25) {
    await Promise.all(keysOf.slice(start, start + 25).map((key) => deps.table.delete(key)));
  }
}

/** Every membership of a user, when the user goes. */
export async function removeMemberships(deps: Deps, orgId: string, userId: string): Promise<void> {
  const teams = await userTeamIds(deps, orgId, userId);
  await Promise.all(teams.map((teamId) => removeTeamMembers(deps, orgId, teamId, [userId])));
}

/** Every membership of a team, when the team goes. */
export async function emptyTeam(deps: Deps, orgId: string, teamId: string): Promise<void> {
  await removeTeamMembers(deps, orgId, teamId, await teamMemberIds(deps, orgId, teamId));
}
