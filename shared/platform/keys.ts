import type { Key } from './table.js';

/**
 * Every key of the single table, in one place so `docs/data-model.md` can be checked against it.
 * Partition prefixes: ORG# (an organisation and its small collections), EMAIL# (login records),
 * SLUG# (suffix counters), WS# (a workspace with its configuration children), WSSTAT# (a
 * workspace's day counters), WSACT# (audit log), CONV# (a conversation with its messages),
 * THROTTLE# (login and sign-up throttling), SESSION# (signed-in sessions), DEPLOYMENT (facts of the
 * whole deployment).
 */
export const keys = {
  org: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  orgPartition: (orgId: string) => `ORG#${orgId}`,
  user: (orgId: string, userId: string): Key => ({ pk: `ORG#${orgId}`, sk: `USER#${userId}` }),
  email: (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  team: (orgId: string, teamId: string): Key => ({ pk: `ORG#${orgId}`, sk: `TEAM#${teamId}` }),
  teamName: (orgId: string, name: string): Key => ({ pk: `ORG#${orgId}`, sk: `TEAMNAME#${name.trim().toLowerCase()}` }),
  setting: (orgId: string, key: string): Key => ({ pk: `ORG#${orgId}`, sk: `SETTING#${key}` }),
  /**
   * The workspace item heads its own partition, so one Query reads it with its connections, tools,
   * knowledge, guardrails and consumers; its conditional put claims the (global) id.
   */
  workspace: (workspaceId: string): Key => ({ pk: `WS#${workspaceId}`, sk: 'META' }),
  /** GSI1 partition listing an organisation's workspaces, oldest first. */
  workspacesIndex: (orgId: string) => `ORG#${orgId}#WS`,
  /** Counter handing out the next free suffix of a slug in a namespace (`ws`, `org`). */
  slugCounter: (namespace: string, slug: string): Key => ({ pk: `SLUG#${namespace}#${slug}`, sk: 'SLUG' }),
  orgSlugClaim: (slug: string): Key => ({ pk: `ORGSLUG#${slug}`, sk: 'ORGSLUG' }),
  workspacePartition: (workspaceId: string) => `WS#${workspaceId}`,
  workspaceStatsPartition: (workspaceId: string) => `WSSTAT#${workspaceId}`,
  workspaceDayStats: (workspaceId: string, day: string): Key => ({ pk: `WSSTAT#${workspaceId}`, sk: `DAY#${day}` }),
  activityPartition: (workspaceId: string) => `WSACT#${workspaceId}`,
  gapsPartition: (workspaceId: string) => `WSGAP#${workspaceId}`,
  violationsPartition: (workspaceId: string) => `WSVIOL#${workspaceId}`,
  /** GSI1 partition listing a workspace's conversations by last activity. */
  conversationsIndex: (workspaceId: string) => `WSCONV#${workspaceId}`,
  /** GSI2 partition listing a workspace's conversations of one status by last activity. */
  conversationsByStatusIndex: (workspaceId: string, status: string) => `WSCONV#${workspaceId}#${status}`,
  /** Queries of an organisation in one minute (the per-organisation rate limit). */
  queryRate: (orgId: string, minute: number): Key => ({ pk: `RATE#${orgId}`, sk: `Q#${minute}` }),
  /** Failed logins of one account, from anywhere, in one window. */
  loginThrottle: (email: string, window: number): Key => ({ pk: `THROTTLE#${email.toLowerCase()}`, sk: `LOGIN#${window}` }),
  /** Failed logins of one account from one client address, in one window. */
  loginFromThrottle: (email: string, address: string, window: number): Key => ({
    pk: `THROTTLE#${email.toLowerCase()}`,
    sk: `LOGIN#${window}#${address}`,
  }),
  /** Failed logins from one client address, to any account, in one window. */
  addressLoginThrottle: (address: string, window: number): Key => ({ pk: `THROTTLE#ADDR#${address}`, sk: `LOGIN#${window}` }),
  /** Sign-ups from one client address in one window. */
  signupThrottle: (address: string, window: number): Key => ({ pk: `THROTTLE#ADDR#${address}`, sk: `SIGNUP#${window}` }),
  /** A signed-in session: while it exists (and its user does), its cookie works. */
  session: (sessionId: string): Key => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' }),
  /** Claimed by the deployment's first sign-up: under `SIGNUP_MODE=invite` only that one is open. */
  firstSignup: (): Key => ({ pk: 'DEPLOYMENT', sk: 'FIRST_SIGNUP' }),
};
