import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key, QueryInput } from '../platform/table.js';
import { conditionOf, tableEntity, updateOf } from '../platform/updates.js';
import { orgPartition } from './entities.js';

/*
 * An organisation's teams (docs/data-model.md), in its partition: the team item, the claim of its
 * name (which holds everything the team item holds: teams.ts rewrites a missing team item from
 * it), and its memberships, each stored twice so that a team's members and a user's teams are each
 * one Query (team-members.ts).
 */

/** A team (`ORG#<org>` / `TEAM#<id>`). */
const teamEntity = tableEntity('team', { id: string(), name: string(), created_at: string() });

export type TeamItem = FormattedItem<typeof teamEntity>;

export const teamKey = (orgId: string, teamId: string): Key => ({ pk: orgPartition(orgId), sk: `TEAM#${teamId}` });

/** A team's new name (its item only: the claims move apart). */
export const teamNameUpdate = (orgId: string, teamId: string, name: string) =>
  updateOf(teamEntity.build(UpdateItemCommand).item({ ...teamKey(orgId, teamId), name }));

/** The claim of a team name, unique per organisation (`ORG#<org>` / `TEAMNAME#<lower-case name>`). */
const teamNameEntity = tableEntity('team-name', { team_id: string(), name: string(), created_at: string() });

export type TeamNameItem = FormattedItem<typeof teamNameEntity>;

export const teamNameKey = (orgId: string, name: string): Key => ({ pk: orgPartition(orgId), sk: `TEAMNAME#${name.trim().toLowerCase()}` });

/** The condition that a name claim is still this team's. */
export const ownTeamNameCondition = (teamId: string) => conditionOf(teamNameEntity, { attr: 'team_id', eq: teamId });

/*
 * A membership (a SCIM group's member), attributes team_id, user_id, added_at: listed by team
 * (`TEAMMEMBER#<team>#<user>`) and by user (`USERTEAM#<user>#<team>`).
 */

/** The two items of one membership: by team, then by user. */
export const membershipKeys = (orgId: string, teamId: string, userId: string): Key[] => [
  { pk: orgPartition(orgId), sk: `TEAMMEMBER#${teamId}#${userId}` },
  { pk: orgPartition(orgId), sk: `USERTEAM#${userId}#${teamId}` },
];

// --- Access patterns ---

/** The teams of an organisation (`TEAMNAME#` claims and `TEAMMEMBER#` memberships do not match `TEAM#`). */
export const teamsOfOrganisation = (orgId: string): QueryInput => ({ pk: orgPartition(orgId), sk: { beginsWith: 'TEAM#' } });

/** A team's memberships (by team). */
export const membersOfTeam = (orgId: string, teamId: string): QueryInput => ({
  pk: orgPartition(orgId),
  sk: { beginsWith: `TEAMMEMBER#${teamId}#` },
});

/** A user's memberships (by user). */
export const teamsOfUser = (orgId: string, userId: string): QueryInput => ({
  pk: orgPartition(orgId),
  sk: { beginsWith: `USERTEAM#${userId}#` },
});
