import type { AppLogger } from '../../shared/platform/logger.js';

export interface LogRecord {
  level: 'debug' | 'info' | 'warn' | 'error';
  message: string;
  extra?: Record<string, unknown>;
}

/** A logger that keeps what it is given, so tests can check what would be written. */
export class RecordingLogger implements AppLogger {
  readonly records: LogRecord[] = [];

  debug(message: string, extra?: Record<string, unknown>) {
    this.records.push({ level: 'debug', message, extra });
  }
  info(message: string, extra?: Record<string, unknown>) {
    this.records.push({ level: 'info', message, extra });
  }
  warn(message: string, extra?: Record<string, unknown>) {
    this.records.push({ level: 'warn', message, extra });
  }
  error(message: string, extra?: Record<string, unknown>) {
    this.records.push({ level: 'error', message, extra });
  }

  /** Everything logged, as one string (errors with their message and stack). */
  text(): string {
    return this.records
      .map((record) =>
        JSON.stringify(record, (_key, value: unknown) =>
          value instanceof Error ? { name: value.name, message: value.message, stack: value.stack } : value,
        ),
      )
      .join('\n');
  }
}
