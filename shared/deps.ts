import type { PasswordHasher } from './auth/passwords.js';
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
}
