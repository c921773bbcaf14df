import { Logger } from '@aws-lambda-powertools/logger';
import type { Config } from './config.js';

/** Structured JSON logger (Powertools). Never log request bodies, settings values or tokens. */
export type AppLogger = Pick<Logger, 'debug' | 'info' | 'warn' | 'error' | 'appendKeys'>;

export function createLogger(config: Pick<Config, 'logLevel'>, serviceName = 'workspace-agent-proxy'): AppLogger {
  return new Logger({ serviceName, logLevel: config.logLevel });
}
