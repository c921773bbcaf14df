/** Primary key of every item in the single table. */
export interface Key {
  pk: string;
  sk: string;
}

/**
 * Keys of the single table not yet beside their entities: the items' own keys, the GSI keys they
 * are listed under, and the sort-key prefixes and fixed sort keys that queries (`begins_with`) and
 * readers (`startsWith`) test. Changing one changes stored data, so each stays as
 * `docs/data-model.md` shows it. The keys of organisations, people, settings, SCIM, single sign-on,
 * budgets, invitations, team chat, consumers, approvals and evaluations are in their domains'
 * `entities.ts` (`org/`, `auth/`, `scim/`, `sso/`, `budgets/`, `invitations/`, `chat/`,
 * `consumers/`, `approvals/`, `evals/`), conversations' (their messages and ratings, and their
 * entries in the due indexes) in `conversations/entities.ts`; the platform's own (slug counters,
 * request rate windows) in `platform/entities.ts`; a workspace's (its item, audit log, cache
 * warnings; counters and day usage; connections, tools and OAuth grants; knowledge and gaps;
 * guardrails and violations) in `workspaces/entities.ts`, `workspaces/usage-entities.ts`,
 * `connections/entities.ts`, `knowledge/entities.ts` and `guardrails/entities.ts`. Partition
 * prefixes here: JOB# and QSTAT# (job ledger, queue counters).
 */
export const keys = {
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
};
