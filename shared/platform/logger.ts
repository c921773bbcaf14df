import { Logger } from '@aws-lambda-powertools/logger';
import type { Config } from './config.js';

/**
 * What the core logs through. Powertools' JSON logger in production; tests pass one that records.
 * Never log request bodies, settings values or tokens.
 */
export interface AppLogger {
  debug(message: string, extra?: Record<string, unknown>): void;
  info(message: string, extra?: Record<string, unknown>): void;
  warn(message: string, extra?: Record<string, unknown>): void;
  error(message: string, extra?: Record<string, unknown>): void;
}

export function createLogger(config: Pick<Config, 'logLevel'>, serviceName = 'workspace-agent-proxy'): AppLogger {
  const logger = new Logger({ serviceName, logLevel: config.logLevel });
  const forward =
    (write: (message: string, ...extra: Record<string, unknown>[]) => void) => (message: string, extra?: Record<string, unknown>) =>
      extra ? write(message, extra) : write(message);
  return {
    debug: forward(logger.debug.bind(logger)),
    info: forward(logger.info.bind(logger)),
    warn: forward(logger.warn.bind(logger)),
    error: forward(logger.error.bind(logger)),
  };
}
