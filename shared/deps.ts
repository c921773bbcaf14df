import { randomBytes } from 'node:crypto';
import { ModelClientCache, type ModelClients } from './agent/providers.js';
import { PasswordHasher } from './auth/passwords.js';
import { sessionKey } from './auth/tokens.js';
import { UnconnectedChat, type ChatNotifier } from './chat/notifier.js';
import type { JobQueue } from './jobs/queue.js';
import type { Scheduler } from './jobs/scheduler.js';
import { McpHub } from './connections/mcp-hub.js';
import type { Clock } from './platform/clock.js';
import type { Config } from './platform/config.js';
import type { AppLogger } from './platform/logger.js';
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
  /** MCP clients with the live sessions of the warm process. */
  mcp: McpHub;
  /** Model clients, chosen per organisation. */
  models: ModelClients;
  /** Background jobs: SQS on AWS, the in-process runner locally. */
  jobs: JobQueue;
  /** Timed sends of jobs: EventBridge Scheduler on AWS, timers locally. */
  scheduler: Scheduler;
  /** Posts into team-chat threads. */
  chat: ChatNotifier;
}

/** The parts a runtime provides; the rest is made from the configuration. */
export interface DepsParts {
  config: Config;
  table: Table;
  clock: Clock;
  logger: AppLogger;
  /** Absent in processes that serve no HTTP (the jobs Lambda): sessions are then never accepted. */
  sessionSecret?: string;
  passwords?: PasswordHasher;
  models?: ModelClients;
  mcp?: McpHub;
  jobs: JobQueue;
  scheduler: Scheduler;
  chat?: ChatNotifier;
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
    models: parts.models ?? new ModelClientCache(parts.config),
    jobs: parts.jobs,
    scheduler: parts.scheduler,
    chat: parts.chat ?? new UnconnectedChat(),
    mcp:
      parts.mcp ??
      new McpHub({
        allowPrivateUrls: parts.config.mcpAllowPrivateUrls,
        stdioCommands: parts.config.mcpStdioCommands,
        timeoutMs: parts.config.mcpTimeoutMs,
        logger: parts.logger,
      }),
  };
}
