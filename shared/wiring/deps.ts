import { randomBytes } from 'node:crypto';
import { QueriesInFlight } from '../agent/in-flight.js';
import type { ModelClients } from '../models/providers.js';
import { PasswordHasher } from '../auth/passwords.js';
import { ApiKeyCache, SessionCache } from '../auth/session-cache.js';
import { WorkspaceToolsCache } from '../connections/workspace-tools-cache.js';
import { sessionKey } from '../auth/tokens.js';
import { UnconnectedChat, type ChatNotifier } from '../chat/notifier-port.js';
import type { McpHub } from '../connections/mcp-hub.js';
import type { AgentDeps, Deps } from '../deps.js';
import type { JobQueue } from '../jobs/queue.js';
import type { Scheduler } from '../jobs/scheduler.js';
import type { Clock } from '../platform/clock.js';
import type { Config } from '../platform/config.js';
import type { AppLogger } from '../platform/logger.js';
import { NO_METRICS, type Metrics } from '../platform/metrics.js';
import { RequestRate } from '../platform/request-rate.js';
import { MemoryBlobStore, type BlobStore } from '../platform/blobs.js';
import { embedderOf } from '../platform/embedder.js';
import type { VectorStore } from '../platform/vectors.js';
import type { Secrets } from '../platform/secrets.js';
import type { Table } from '../platform/table.js';
import type { RoutineDirectory } from '../budgets/routine-port.js';

/*
 * The core's dependencies (`Deps`, shared/deps.ts) built from what a runtime provides: the local
 * runtime, each Lambda entry point and the tests call this once per process.
 */

/** The parts a runtime provides; the rest is made from the configuration. */
export interface DepsParts {
  config: Config;
  table: Table;
  clock: Clock;
  logger: AppLogger;
  secrets: Secrets;
  /** Where files go; by default this process's memory (tests, `DATA_DIR=memory`). */
  blobs?: BlobStore;
  /** Where passages' vectors go outside the index (S3 Vectors on AWS); by default the index keeps them. */
  vectors?: VectorStore;
  /** Absent in processes that serve no HTTP (the jobs Lambda): sessions are then never accepted. */
  sessionSecret?: string;
  passwords?: PasswordHasher;
  models?: ModelClients;
  mcp?: McpHub;
  jobs: JobQueue;
  scheduler: Scheduler;
  chat?: ChatNotifier;
  /** Where metrics go; by default nowhere (the API function records none, tests do not look). */
  metrics?: Metrics;
}

/** Builds the core's dependencies once per process (local runtime, Lambda container, test file). */
export function createDeps(parts: DepsParts): Deps {
  return {
    config: parts.config,
    table: parts.table,
    clock: parts.clock,
    logger: parts.logger,
    passwords: parts.passwords ?? new PasswordHasher(),
    sessionKey: sessionKey(parts.sessionSecret ?? randomBytes(48).toString('base64url')),
    secrets: parts.secrets,
    blobs: parts.blobs ?? new MemoryBlobStore(),
    embedder: parts.config.embeddings ? embedderOf(parts.config.embeddings, parts.config.awsRegion) : undefined,
    vectors: parts.vectors,
    sessions: new SessionCache(authReadFailed(parts.logger)),
    apiKeys: new ApiKeyCache(authReadFailed(parts.logger)),
    workspaceTools: new WorkspaceToolsCache(parts.table, (error) =>
      parts.logger.warn("could not read a workspace's tools again; the next request will", { error }),
    ),
    models: parts.models,
    jobs: parts.jobs,
    scheduler: parts.scheduler,
    chat: parts.chat ?? new UnconnectedChat(),
    mcp: parts.mcp,
    metrics: parts.metrics ?? NO_METRICS,
    inFlight: new QueriesInFlight({ total: parts.config.maxQueriesInFlight, perOrganisation: parts.config.maxQueriesInFlightPerOrg }),
    requestRate: new RequestRate(parts.table, parts.clock, parts.logger),
    routineDirectory: routineDirectoryOf(parts.table),
    // Approvals' port (approvals/after-decision.ts): a routine's run ends, and is delivered, when its
    // approval's query does. The routines' code loads only for a routine's conversation: every
    // function has these deps, and most never meet one (the agent's cold start, DESIGN.md).
    afterDecision: async (deps, decided) => {
      if (!decided.owner.startsWith('routine:')) return;
      const { followDecidedRun } = await import('../routines/resumed-run.js');
      await followDecidedRun(deps, decided);
    },
  };
}

/** Budgets' port on routines (budgets/routine-port.ts), filled with the routines' lookup: budgets cannot import routines. */
function routineDirectoryOf(table: Table): RoutineDirectory {
  return {
    async routineName(orgId, routineId) {
      const { findRoutine } = await import('../routines/store.js');
      const routine = await findRoutine({ table }, routineId);
      return routine?.org_id === orgId ? routine.name : undefined;
    },
  };
}

/** A session or key read again behind a request failed: the next request reads it again. */
function authReadFailed(logger: AppLogger) {
  return (error: unknown) => logger.warn('could not read a session or API key again; the next request will', { error });
}

/** Builds the deps of a process that runs the agent loop. */
export function createAgentDeps(parts: DepsParts & { mcp: McpHub; models: ModelClients }): AgentDeps {
  return { ...createDeps(parts), mcp: parts.mcp, models: parts.models };
}
