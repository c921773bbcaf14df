import type { Clock } from './clock.js';
import type { Secrets } from './secrets.js';
import type { Table } from './table.js';

/**
 * What a store module needs: the table and the clock. Modules that only read and write items take
 * this instead of the whole `Deps`, so the components the deps hold (the job queue, the chat
 * notifier) can use them without an import circle back to `shared/deps.ts`.
 */
export interface Store {
  readonly table: Table;
  readonly clock: Clock;
}

/** A store module that also keeps secrets (settings, connection credentials, tokens): seals and opens them. */
export interface SecretStore extends Store {
  readonly secrets: Secrets;
}
