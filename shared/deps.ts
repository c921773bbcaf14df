import type { QueriesInFlight } from './agent/in-flight.js';
import type { ModelClients } from './models/providers.js';
import type { PasswordHasher } from './auth/passwords.js';
import type { ApiKeyCache, SessionCache } from './auth/session-cache.js';
import type { ChatNotifier } from './chat/notifier-port.js';
import type { RoutineDirectory } from './budgets/routine-port.js';
import type { DecisionFollower } from './approvals/after-decision.js';
import type { JobQueue } from './jobs/queue.js';
import type { Scheduler } from './jobs/scheduler.js';
import type { RequestRate } from './platform/request-rate.js';
import type { McpHub } from './connections/mcp-hub.js';
import type { WorkspaceToolsCache } from './connections/workspace-tools-cache.js';
import type { BlobStore } from './platform/blobs.js';
import type { Embedder } from './platform/embeddings.js';
import type { VectorStore } from './platform/vectors.js';
import type { Clock } from './platform/clock.js';
import type { Config } from './platform/config.js';
import type { AppLogger } from './platform/logger.js';
import type { Metrics } from './platform/metrics.js';
import type { Secrets } from './platform/secrets.js';
import type { Table } from './platform/table.js';

/**
 * Everything the core needs from its runtime. Built once per process by `bin/local.ts`, the Lambda
 * entry points and the tests, then passed to `createApp` and to core functions as their first argument.
 */
export interface Deps {
  config: Config;
  table: Table;
  clock: Clock;
  logger: AppLogger;
  passwords: PasswordHasher;
  /** HS256 key of session tokens. */
  sessionKey: Uint8Array;
  /** Seals and opens secrets at rest (KMS envelope encryption on AWS, a key file locally). */
  secrets: Secrets;
  /** What this process read of sessions, for a few seconds. */
  sessions: SessionCache;
  /** What this process read of API keys, for a few seconds. */
  apiKeys: ApiKeyCache;
  /** Files kept outside the table: knowledge documents, their passages and indexes (S3 on AWS, `DATA_DIR/blobs` locally). */
  blobs: BlobStore;
  /** The embedding provider of the knowledge search, when the operator configured one (`EMBEDDINGS_*`). */
  embedder?: Embedder;
  /** Where passages' vectors are kept outside the index: S3 Vectors on AWS; none locally (the index keeps them). */
  vectors?: VectorStore;
  /** What this process read of workspaces' tools, for a few seconds (the MCP gateway's calls). */
  workspaceTools: WorkspaceToolsCache;
  /**
   * MCP clients with the live sessions of the warm process, and the model clients. Wired only in
   * the processes that run the agent (the local runtime, the agent and jobs functions on AWS), so
   * the API function's bundle stays small; `mcpOf` / `modelsOf` give them or say they are absent.
   */
  mcp?: McpHub;
  models?: ModelClients;
  /** Background jobs: SQS on AWS, the in-process runner locally. */
  jobs: JobQueue;
  /** Timed sends of jobs: EventBridge Scheduler on AWS, timers locally. */
  scheduler: Scheduler;
  /** Posts into team-chat threads. */
  chat: ChatNotifier;
  /** Counters and durations (CloudWatch EMF on AWS, a Prometheus registry locally): in-memory, never awaited. */
  metrics: Metrics;
  /** The queries this process runs now, bounded in all and per organisation (`agent/in-flight.ts`). */
  inFlight: QueriesInFlight;
  /** Requests per minute of each organisation and consumer key (`platform/request-rate.ts`). */
  requestRate: RequestRate;
  /** The routines a budget may cover, as budgets look them up (`budgets/routine-port.ts`; the routines' lookup). */
  routineDirectory: RoutineDirectory;
  /** Told how a paused query ended once its approval was decided (`approvals/after-decision.ts`; a routine's run delivers it). */
  afterDecision: DecisionFollower;
}

/** Deps of a process that runs the agent. */
export interface AgentDeps extends Deps {
  mcp: McpHub;
  models: ModelClients;
}

/** The deps of a process wired with the agent's clients (checked, not assumed). */
export function requireAgentDeps(deps: Deps): AgentDeps {
  return Object.assign(deps, { mcp: mcpOf(deps), models: modelsOf(deps) });
}

/** Raised when agent code runs in a process that was not wired for it (a routing mistake). */
class AgentNotWiredError extends Error {
  constructor(what: string) {
    super(`${what} is not wired into this process`);
    this.name = 'AgentNotWiredError';
  }
}

export function modelsOf(deps: Deps): ModelClients {
  if (!deps.models) throw new AgentNotWiredError('the model client');
  return deps.models;
}

export function mcpOf(deps: Deps): McpHub {
  if (!deps.mcp) throw new AgentNotWiredError('the MCP hub');
  return deps.mcp;
}
