import { shardKey } from './list-shards.js';

const messageSortKey = (seq: number) => `MSG#${String(seq).padStart(6, '0')}`; // a message's, in its conversation's partition
const resultSortKey = (runId: string, index: number) => `RES#${runId}#${String(index).padStart(4, '0')}`; // a case's result, in its run's
/** Primary key of every item in the single table. */
export interface Key {
  pk: string;
  sk: string;
}

/**
 * Every key of the single table, in one place so `docs/data-model.md` can be checked against it:
 * the items' own keys, the GSI keys they are listed under, and the sort-key prefixes and fixed sort
 * keys that queries (`begins_with`) and readers (`startsWith`) test. Nothing else builds a key from
 * a literal; changing one here changes stored data, so each stays as `docs/data-model.md` shows it.
 * Partition prefixes: ORG# (an organisation and its small collections), EMAIL# (login records), SLUG# and ORGSLUG# (suffix counters,
 * organisation slug claims), WS# (a workspace with its configuration children), WSSTAT# (a workspace's day counters), WSACT# (audit
 * log), WSGAP# (knowledge gaps), WSVIOL# (guardrail violations), WSEVAL# and EVALRUN# (evaluations, their runs and results), CONV# (a
 * conversation with its messages), FEEDBACK# (ratings of a conversation's answers), APIKEY# (consumer key records), CHANNEL#
 * (team-chat channel bindings), BUDGETSPEND# and BUDGETALERT# (a budget's spend per period, alerts sent), CHATEVENT# and CHATMSG#
 * (team-chat deliveries seen), CHATLINKREQ# (one-time requests to link a chat account), INVITE# (invitations by link), JOB# and QSTAT#
 * (job ledger, queue counters), RATE# (query rate windows), THROTTLE# (login, sign-up, sign-in throttling), SESSION# (signed-in sessions),
 * SSODOMAIN# and SSOSTATE# (single sign-on: domain claims, sign-ins under way), DEPLOYMENT (facts of the whole deployment: the first
 * sign-up, the schema version of the stored data).
 */
export const keys = {
  // --- Organisation partition (`ORG#<org>`) ---
  org: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'ORG' }),
  orgPartition: (orgId: string) => `ORG#${orgId}`,
  user: (orgId: string, userId: string): Key => ({ pk: `ORG#${orgId}`, sk: `USER#${userId}` }),
  /** `begins_with` prefix of the users in an organisation partition. */
  userPrefix: 'USER#',
  email: (email: string): Key => ({ pk: `EMAIL#${email.toLowerCase()}`, sk: 'EMAIL' }),
  team: (orgId: string, teamId: string): Key => ({ pk: `ORG#${orgId}`, sk: `TEAM#${teamId}` }),
  /** `begins_with` prefix of the teams in an organisation partition (`TEAMNAME#` claims do not match it). */
  teamPrefix: 'TEAM#',
  teamName: (orgId: string, name: string): Key => ({ pk: `ORG#${orgId}`, sk: `TEAMNAME#${name.trim().toLowerCase()}` }),
  /** A user's membership of a team (a SCIM group's member), listed by team... */
  teamMember: (orgId: string, teamId: string, userId: string): Key => ({ pk: `ORG#${orgId}`, sk: `TEAMMEMBER#${teamId}#${userId}` }),
  /** `begins_with` prefix of a team's memberships. */
  teamMemberPrefix: (teamId: string) => `TEAMMEMBER#${teamId}#`,
  /** ...and the same membership listed by user (what removing a user or showing their groups reads). */
  userTeam: (orgId: string, userId: string, teamId: string): Key => ({ pk: `ORG#${orgId}`, sk: `USERTEAM#${userId}#${teamId}` }),
  /** `begins_with` prefix of a user's memberships. */
  userTeamPrefix: (userId: string) => `USERTEAM#${userId}#`,
  /** The organisation's SCIM provisioning: the hash of its bearer token, when it was made, the last sync. */
  scim: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'SCIM' }),
  setting: (orgId: string, key: string): Key => ({ pk: `ORG#${orgId}`, sk: `SETTING#${key}` }),
  /** `begins_with` prefix of the settings in an organisation partition. */
  settingPrefix: 'SETTING#',
  /**
   * The organisation's budgets: their definitions in one item (a map by id), read with the model
   * settings in the query's BatchGet, so a query of an organisation without budgets pays nothing.
   */
  budgets: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'BUDGETS' }),
  /** What a budget has spent and holds reserved in one period (`YYYY-MM-DD` or `YYYY-MM`): `room`, `spent`, `reserved`. */
  budgetSpend: (budgetId: string, period: string): Key => ({ pk: `BUDGETSPEND#${budgetId}`, sk: period }),
  /** An alert of a budget sent for a period and threshold: claimed once (conditional put), kept 62 days (TTL). */
  budgetAlert: (budgetId: string, period: string, percent: number): Key => ({
    pk: `BUDGETALERT#${budgetId}#${period}#${percent}`,
    sk: 'ALERT',
  }),
  /** The organisation's single sign-on setting (shared/sso/config.ts), its client secret sealed. */
  sso: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'SSO' }),
  /** The claim of an e-mail domain by the organisation that signs it in: one organisation per domain. */
  ssoDomain: (domain: string): Key => ({ pk: `SSODOMAIN#${domain.toLowerCase()}`, sk: 'DOMAIN' }),
  /** A sign-in under way with the provider: found by its `state`, single use, 10 minutes (TTL). */
  ssoState: (state: string): Key => ({ pk: `SSOSTATE#${state}`, sk: 'STATE' }),
  /** GSI1 partition listing the organisations with a chat app token (what the chat bridge connects). */
  chatOrganisationsIndex: () => 'CHATORGS',
  /** GSI1 attributes of the `chat_app_token` setting: the organisation's entry in that index. */
  chatOrganisationEntry: (orgId: string) => ({ gsi1pk: 'CHATORGS', gsi1sk: orgId }),

  // --- Unique names ---
  /** Counter handing out the next free suffix of a slug in a namespace (`ws@<orgId>`, `org`). */
  slugCounter: (namespace: string, slug: string): Key => ({ pk: `SLUG#${namespace}#${slug}`, sk: 'SLUG' }),
  orgSlugClaim: (slug: string): Key => ({ pk: `ORGSLUG#${slug}`, sk: 'ORGSLUG' }),

  // --- Workspace partition (`WS#<org>#<workspace>`): the workspace item, then its configuration children ---
  /**
   * The workspace item heads its own partition, so one Query reads it with its connections, tools,
   * knowledge, guardrails and consumers; its conditional put claims the id. Every key of a
   * workspace's data starts with its organisation: workspace ids are unique within one only.
   */
  workspace: (orgId: string, workspaceId: string): Key => ({ pk: `WS#${orgId}#${workspaceId}`, sk: 'META' }),
  /** Sort key of the workspace item, telling it from its children. */
  workspaceSortKey: 'META',
  workspacePartition: (orgId: string, workspaceId: string) => `WS#${orgId}#${workspaceId}`,
  /** GSI1 partition listing an organisation's workspaces, oldest first. */
  workspacesIndex: (orgId: string) => `ORG#${orgId}#WS`,
  /** GSI1 attributes of a workspace item: its entry in `workspacesIndex`, by creation time. */
  workspacesIndexEntry: (orgId: string, createdAt: string, workspaceId: string) => ({
    gsi1pk: `ORG#${orgId}#WS`,
    gsi1sk: `${createdAt}#${workspaceId}`,
  }),
  connection: (orgId: string, workspaceId: string, connectionId: string): Key => ({
    pk: `WS#${orgId}#${workspaceId}`,
    sk: `CONN#${connectionId}`,
  }),
  connectionPrefix: 'CONN#',
  /** Claim of a connection name, unique per workspace (`CONNNAME#` does not match `connectionPrefix`). */
  connectionName: (orgId: string, workspaceId: string, name: string): Key => ({
    pk: `WS#${orgId}#${workspaceId}`,
    sk: `CONNNAME#${name.trim().toLowerCase()}`,
  }),
  /** GSI2 partition finding a connection by its id alone. */
  connectionIdIndex: (connectionId: string) => `CONNID#${connectionId}`,
  /** GSI2 attributes of a connection item: its entry in `connectionIdIndex`. */
  connectionIdEntry: (connectionId: string) => ({ gsi2pk: `CONNID#${connectionId}`, gsi2sk: 'CONN' }),
  /** A tool as cached with its connection. */
  tool: (orgId: string, workspaceId: string, connectionId: string, toolName: string): Key => ({
    pk: `WS#${orgId}#${workspaceId}`,
    sk: `TOOL#${connectionId}#${toolName}`,
  }),
  toolPrefix: 'TOOL#',
  /** `begins_with` prefix of one connection's cached tools. */
  toolsOfConnectionPrefix: (connectionId: string) => `TOOL#${connectionId}#`,
  knowledge: (orgId: string, workspaceId: string, knowledgeId: string): Key => ({
    pk: `WS#${orgId}#${workspaceId}`,
    sk: `KNOW#${knowledgeId}`,
  }),
  knowledgePrefix: 'KNOW#',
  guardrail: (orgId: string, workspaceId: string, guardrailId: string): Key => ({
    pk: `WS#${orgId}#${workspaceId}`,
    sk: `GUARD#${guardrailId}`,
  }),
  guardrailPrefix: 'GUARD#',
  consumer: (orgId: string, workspaceId: string, consumerId: string): Key => ({
    pk: `WS#${orgId}#${workspaceId}`,
    sk: `CONSUMER#${consumerId}`,
  }),
  consumerPrefix: 'CONSUMER#',
  /** GSI2 partition finding a consumer by its id alone (to revoke it). */
  consumerIdIndex: (consumerId: string) => `CONSUMERID#${consumerId}`,
  /** GSI2 attributes of a consumer item: its entry in `consumerIdIndex`. */
  consumerIdEntry: (consumerId: string) => ({ gsi2pk: `CONSUMERID#${consumerId}`, gsi2sk: 'CONSUMER' }),
  /** The record a Bearer key authenticates as, found by the key's SHA-256 (the key itself is never stored). */
  apiKey: (hash: string): Key => ({ pk: `APIKEY#${hash}`, sk: 'KEY' }),

  /** A workspace's usage of one day in a shard of its organisation's (`workspaces/day-counts.ts`; `DAY#`: queries and cost, before). */
  queriesToday: (orgId: string, shard: number, day: string, workspaceId: string, kind: 'USE' | 'DAY' = 'USE'): Key => ({
    pk: `ORGTODAY#${orgId}#${shard}`,
    sk: `${kind}#${day}#WS#${workspaceId}`,
  }),
  queriesTodayPartition: (orgId: string, shard: number) => `ORGTODAY#${orgId}#${shard}`,
  /** Prefix of the sort keys of one day's counts in a shard. */
  queriesTodayPrefix: (day: string, kind: 'USE' | 'DAY' = 'USE') => `${kind}#${day}#WS#`,

  /** One shard of a workspace's counters (`workspaces/counters.ts`): an item per month. */
  workspaceCounters: (orgId: string, workspaceId: string, shard: number, month: string): Key => ({
    pk: `WSCOUNT#${orgId}#${workspaceId}#${shard}`,
    sk: `M#${month}`,
  }),
  workspaceCountersPartition: (orgId: string, workspaceId: string, shard: number) => `WSCOUNT#${orgId}#${workspaceId}#${shard}`,
  workspaceCountersPrefix: 'WSCOUNT#',

  // --- A workspace's partitions that grow without bound ---
  /** A workspace's day counters as written before they joined its organisation's day items (`queriesToday`): read, not written. */
  workspaceStatsPartition: (orgId: string, workspaceId: string) => `WSSTAT#${orgId}#${workspaceId}`,
  workspaceDayStats: (orgId: string, workspaceId: string, day: string): Key => ({ pk: `WSSTAT#${orgId}#${workspaceId}`, sk: `DAY#${day}` }),
  /** That a warning of the prompt cache's hit rate on `day` was logged (`workspaces/cache-watch.ts`): once a day. */
  cacheWarning: (orgId: string, workspaceId: string, day: string): Key => ({ pk: `WSSTAT#${orgId}#${workspaceId}`, sk: `WARN#${day}` }),
  activityPartition: (orgId: string, workspaceId: string) => `WSACT#${orgId}#${workspaceId}`,
  /** An audit log entry, listed newest first, in one of the log's shards (platform/list-shards.ts). */
  activityEntry: (orgId: string, workspaceId: string, at: string, activityId: string, shard = 0): Key => ({
    pk: shardKey(`WSACT#${orgId}#${workspaceId}`, shard),
    sk: `${at}#${activityId}`,
  }),
  gapsPartition: (orgId: string, workspaceId: string) => `WSGAP#${orgId}#${workspaceId}`,
  /** A knowledge gap, listed newest first. */
  gap: (orgId: string, workspaceId: string, at: string, gapId: string): Key => ({
    pk: `WSGAP#${orgId}#${workspaceId}`,
    sk: `${at}#${gapId}`,
  }),
  violationsPartition: (orgId: string, workspaceId: string) => `WSVIOL#${orgId}#${workspaceId}`,
  /** A guardrail violation, listed newest first. */
  violation: (orgId: string, workspaceId: string, at: string, violationId: string): Key => ({
    pk: `WSVIOL#${orgId}#${workspaceId}`,
    sk: `${at}#${violationId}`,
  }),

  // --- Evaluations (`WSEVAL#<org>#<workspace>`, `EVALRUN#<evaluation>`) ---
  /** An evaluation's definition, its cases inline: apart from the workspace's partition, which every query reads. */
  evaluation: (orgId: string, workspaceId: string, evalId: string): Key => ({ pk: `WSEVAL#${orgId}#${workspaceId}`, sk: `EVAL#${evalId}` }),
  evaluationsPartition: (orgId: string, workspaceId: string) => `WSEVAL#${orgId}#${workspaceId}`,
  /** A run of an evaluation; run ids are time-ordered, so the partition lists newest first. */
  evaluationRun: (evalId: string, runId: string): Key => ({ pk: `EVALRUN#${evalId}`, sk: `RUN#${runId}` }),
  evaluationRunsPartition: (evalId: string) => `EVALRUN#${evalId}`,
  /** `begins_with` prefix of the runs in an evaluation's runs partition (`RES#` results do not match it). */
  evaluationRunPrefix: 'RUN#',
  /** The result of one case of a run (the case's index, 4 digits). */
  evaluationResult: (evalId: string, runId: string, index: number): Key => ({ pk: `EVALRUN#${evalId}`, sk: resultSortKey(runId, index) }),
  evaluationResultPrefix: (runId: string) => `RES#${runId}#`,
  /** The organisation's evaluation counts (`evals/counts.ts`): evaluations per workspace, cases of runs under way, those runs. */
  evaluationCounts: (orgId: string): Key => ({ pk: `ORG#${orgId}`, sk: 'EVALCOUNTS' }),

  // --- Approvals of tool calls (`WSAPPR#<workspace>`) ---
  /** An approval of one tool call; ids are time-ordered, so the partition lists newest first. */
  approval: (orgId: string, workspaceId: string, approvalId: string): Key => ({
    pk: `WSAPPR#${orgId}#${workspaceId}`,
    sk: `APPR#${approvalId}`,
  }),
  approvalsPartition: (orgId: string, workspaceId: string) => `WSAPPR#${orgId}#${workspaceId}`,
  /** GSI2 partition of a workspace's approvals of one status (sort key: the approval id). */
  approvalsByStatusIndex: (orgId: string, workspaceId: string, status: string) => `WSAPPR#${orgId}#${workspaceId}#${status}`,

  // --- Conversation partition (`CONV#<workspace>#<conversation>`) ---
  /**
   * A conversation and its messages share a partition: the messages `MSG#<seq, 6 digits>` (a
   * question and its answer in one item under the question's: conversations/messages.ts) and the
   * conversation item `STATE`, which sorts after them, so one newest-first Query returns the
   * conversation with its latest messages. Its indexes: docs/data-model.md.
   */
  conversationPartition: (orgId: string, workspaceId: string, conversationId: string) => `CONV#${orgId}#${workspaceId}#${conversationId}`,
  conversation: (orgId: string, workspaceId: string, conversationId: string): Key => ({
    pk: `CONV#${orgId}#${workspaceId}#${conversationId}`,
    sk: 'STATE',
  }),
  /** Sort key of the conversation item, telling it from its messages. */
  conversationSortKey: 'STATE',
  message: (orgId: string, workspaceId: string, conversationId: string, seq: number): Key => ({
    pk: `CONV#${orgId}#${workspaceId}#${conversationId}`,
    sk: messageSortKey(seq),
  }),
  messageSortKey,
  messagePrefix: 'MSG#',
  /**
   * One rater's rating of one answer. Ratings have a partition of their own per conversation, not
   * the conversation's: its newest-first Query (the query's context, limit 41) must meet only
   * messages before the conversation item, and the detail view reads the whole partition.
   */
  feedback: (orgId: string, workspaceId: string, conversationId: string, seq: number, rater: string): Key => ({
    pk: `FEEDBACK#${orgId}#${workspaceId}#${conversationId}`,
    sk: `MSG#${String(seq).padStart(6, '0')}#${rater}`,
  }),
  /** GSI1 partition (shard 0: platform/list-shards.ts) listing a workspace's conversations by last activity; GSI2's per status, of before (each move takes a conversation out). */
  conversationsIndex: (orgId: string, workspaceId: string) => `WSCONV#${orgId}#${workspaceId}`,
  conversationsByStatusIndex: (orgId: string, workspaceId: string, status: string) => `WSCONV#${orgId}#${workspaceId}#${status}`,
  /** Due-index partition of one shard: open conversations (GSI5) or cold ones (GSI4), sort key the due time; approvals (GSI3). */
  dueIndex: (status: string, shard: number) => `DUE#${status}#${shard}`,
  /** GSI3 sort key of an approval in `dueIndex` (and of a conversation before GSI4). */
  dueIndexSortKey: (dueAt: string, orgId: string, workspaceId: string, conversationId: string) =>
    `${dueAt}#${orgId}#${workspaceId}#${conversationId}`,

  // --- Team chat ---
  /** A channel binding: one item per organisation and channel, so a channel belongs to one workspace. */
  channelBinding: (orgId: string, channelId: string): Key => ({ pk: `CHANNEL#${orgId}#${channelId}`, sk: 'CHANNEL' }),
  /** GSI1 partition listing the channels bound to a workspace. */
  workspaceChannelsIndex: (orgId: string, workspaceId: string) => `WSCHANNELS#${orgId}#${workspaceId}`,
  /** GSI1 attributes of a channel binding: its entry in `workspaceChannelsIndex`. */
  workspaceChannelsEntry: (orgId: string, workspaceId: string, channelId: string) => ({
    gsi1pk: `WSCHANNELS#${orgId}#${workspaceId}`,
    gsi1sk: channelId,
  }),
  /** Marker of a chat event already handled (dedupe by event id, with a TTL). */
  chatEventSeen: (orgId: string, eventId: string): Key => ({ pk: `CHATEVENT#${orgId}#${eventId}`, sk: 'SEEN' }),
  /** Marker of a chat message already handled (it arrives as `app_mention` and as `message`). */
  chatMessageSeen: (orgId: string, channelId: string, ts: string): Key => ({ pk: `CHATMSG#${orgId}#${channelId}#${ts}`, sk: 'SEEN' }),
  /**
   * A chat account linked to a user of the organisation: one per chat team and chat user, in the
   * organisation's partition (its links are a small collection, listed with `chatLinkPrefix`).
   * Approval buttons and per-user grants in team chat go by it (`shared/chat/links.ts`).
   */
  chatLink: (orgId: string, teamId: string, chatUserId: string): Key => ({
    pk: `ORG#${orgId}`,
    sk: `CHATLINK#${teamId}#${chatUserId}`,
  }),
  /** `begins_with` prefix of the chat links in an organisation partition. */
  chatLinkPrefix: 'CHATLINK#',
  /**
   * A request to link a chat account, sent by the bot to that chat user only: found by the SHA-256
   * of its one-time token (the token itself is never stored); single use, 30 minutes (TTL).
   */
  chatLinkRequest: (tokenHash: string): Key => ({ pk: `CHATLINKREQ#${tokenHash}`, sk: 'REQUEST' }),

  // --- Invitations by link (`shared/invitations/`) ---
  /**
   * An invitation to join an organisation, found by the SHA-256 of its one-time token (the token
   * itself is never stored); listed by its organisation through GSI1. Kept (TTL) a week past its
   * expiry, so a late link says "expired" rather than "unknown".
   */
  invitation: (tokenHash: string): Key => ({ pk: `INVITE#${tokenHash}`, sk: 'INVITATION' }),
  /** GSI1 partition listing an organisation's invitations, oldest first. */
  invitationsIndex: (orgId: string) => `ORG#${orgId}#INVITES`,
  /** GSI1 attributes of an invitation: its entry in `invitationsIndex`. */
  invitationsIndexEntry: (orgId: string, createdAt: string, invitationId: string) => ({
    gsi1pk: `ORG#${orgId}#INVITES`,
    gsi1sk: `${createdAt}#${invitationId}`,
  }),

  // --- Job ledger ---
  job: (jobId: string): Key => ({ pk: `JOB#${jobId}`, sk: 'JOB' }),
  /** GSI1 partition listing an organisation's jobs of one queue and state, by last change (sort key `timeOrdered`). */
  jobsByStateIndex: (orgId: string, queue: string, state: string, shard?: number) =>
    shard === undefined ? `JOBS#${orgId}#${queue}#${state}` : `JOBS#${orgId}#${queue}#${state}#${shard}`,
  /**
   * GSI2 partition of one shard of a queue's pending jobs, by run time (sort key `timeOrdered`):
   * the job's id picks the shard (`jobs/shards.ts`), so no partition takes every job of the deployment.
   */
  pendingJobsIndex: (queue: string, shard: number) => `JOBPENDING#${queue}#${shard}`,
  /** The pending index before it was sharded: still read, for jobs written then. */
  unshardedPendingJobsIndex: (queue: string) => `JOBPENDING#${queue}`,
  /** One shard of an organisation's queue counters (attributes `<queue>#<state>`), chosen at random by each change, summed on read. */
  queueCounters: (orgId: string, shard: number): Key => ({ pk: `QSTAT#${orgId}#${shard}`, sk: 'QUEUES' }),
  /** The queue counters before they were sharded: still read (and reset by a drain), for what was counted then. */
  unshardedQueueCounters: (orgId: string): Key => ({ pk: `QSTAT#${orgId}`, sk: 'QUEUES' }),

  // --- Sort keys ordered by time ---
  /** `<ISO time>#<id>`: entries listed by time (index entries, audit log, gaps, violations). */
  timeOrdered: (at: string, id: string) => `${at}#${id}`,
  /**
   * A sort-key bound after every key starting with `<at>#` ('~' sorts after '#'): `lte` takes all
   * entries up to and including `at`, `gte` all entries after it.
   */
  afterTime: (at: string) => `${at}~`,

  // --- Rate limits, throttles and sessions ---
  /** Requests of one organisation (`org:<id>`) or consumer key (`key:<id>`), or queries of one organisation (`queries:<id>`), in one
   * minute, all processes together (`platform/request-rate.ts`). */
  requestRate: (scope: string, minute: number): Key => ({ pk: `REQRATE#${scope}`, sk: `M#${minute}` }),
  /** Failed logins of one account, from anywhere, in one window. */
  loginThrottle: (email: string, window: number): Key => ({ pk: `THROTTLE#${email.toLowerCase()}`, sk: `LOGIN#${window}` }),
  /** Failed logins of one account from one client address, in one window. */
  loginFromThrottle: (email: string, address: string, window: number): Key => ({
    pk: `THROTTLE#${email.toLowerCase()}`,
    sk: `LOGIN#${window}#${address}`,
  }),
  /** Failed logins from one client address, to any account, in one window. */
  addressLoginThrottle: (address: string, window: number): Key => ({ pk: `THROTTLE#ADDR#${address}`, sk: `LOGIN#${window}` }),
  /** Sign-ups, and single sign-on starts not completed (`ssoStartThrottle`), from one client address in one window. */
  signupThrottle: (address: string, window: number): Key => ({ pk: `THROTTLE#ADDR#${address}`, sk: `SIGNUP#${window}` }),
  ssoStartThrottle: (address: string, window: number): Key => ({ pk: `THROTTLE#ADDR#${address}`, sk: `SSO#${window}` }),
  /** A signed-in session: while it exists (and its user does), its cookie works. */
  session: (sessionId: string): Key => ({ pk: `SESSION#${sessionId}`, sk: 'SESSION' }),
  /** Claimed by the deployment's first sign-up: under `SIGNUP_MODE=invite` only that one is open. */
  firstSignup: (): Key => ({ pk: 'DEPLOYMENT', sk: 'FIRST_SIGNUP' }),
  /** The schema version of the stored data (shared/platform/migrate.ts), written when a migration ends. */
  schemaVersion: (): Key => ({ pk: 'DEPLOYMENT', sk: 'SCHEMA' }),

  // OAuth grants of connections (shared/connections/oauth.ts): sealed client registration and tokens.
  /** A connection's OAuth partition: its registered client and its grants. */
  oauthPartition: (connectionId: string) => `OAUTH#${connectionId}`,
  /** The OAuth client the service registered (or was given) for a connection. */
  oauthClient: (connectionId: string): Key => ({ pk: `OAUTH#${connectionId}`, sk: 'CLIENT' }),
  /** A grant's tokens: `workspace` for the workspace's own grant, a user id for a per-user one. */
  oauthTokens: (connectionId: string, subject: string): Key => ({ pk: `OAUTH#${connectionId}`, sk: `TOKENS#${subject}` }),
  /** A grant under way: single use, for ten minutes (TTL). */
  oauthState: (state: string): Key => ({ pk: `OAUTHSTATE#${state}`, sk: 'STATE' }),
};
