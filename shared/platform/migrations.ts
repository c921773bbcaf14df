import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import type { Clock } from './clock.js';
import type { AppLogger } from './logger.js';
import type { Secrets } from './secrets.js';
import { type ConditionalWrite, conditionHeld, type Item, type Key, type Table, type UpdateInput } from './table.js';

/*
 * Numbered migrations of stored data (migrations/NNN-*.ts), run before a new version serves: by
 * the local runtime at its start, on AWS by the deploy's migration function
 * (functions/migrate/handler.ts, lib/migration.ts). The table's schema version is the number of
 * the last migration it has had; each migration rewrites what this version no longer reads, so no
 * reader branches on data "written before".
 *
 * Each migration is idempotent (an item already rewritten is left as it is) and resumable: its
 * scans save their position in the schema marker after every page, so a run stopped half-way (a
 * Lambda's 15 minutes, a crash) goes on from that page, past the scans it had finished. The
 * marker's version moves on when a migration ends.
 *
 * This is the one place that reads the whole table (Scan): `Table` deliberately has none, since
 * nothing on a request's path may. Platform code: it knows no domain, the migrations do.
 */

/** The item that holds the table's schema version and the positions of scans under way. */
export const SCHEMA_MARKER: Key = { pk: 'DEPLOYMENT', sk: 'SCHEMA' };

/** A scan's position when it has read the table to its end: a run that goes on does not read it again. */
const FINISHED = 'finished';

interface Marker {
  /** The number of the last migration run (1: the first version, which had none). */
  version?: number;
  /** Per `<version>:<scan>` of the migration under way, the key to go on from, or `finished`. */
  cursors?: Record<string, Record<string, unknown> | typeof FINISHED>;
}

/** A filter on the scanned items: a condition, as an entity's `conditionOf` builds it (platform/updates.ts). */
type ScanFilter = ConditionalWrite;

export interface MigrationContext {
  table: Table;
  clock: Clock;
  logger?: AppLogger;
  /**
   * The deployment's secrets (the key the service seals with), for a migration that seals or opens
   * a stored secret. Both runners give it (the local runtime its key file, the deploy's function
   * the stack's KMS key); a migration that needs it and finds none fails rather than skip.
   */
  secrets?: Secrets;
  /**
   * Every item matching `filter`, page by page (up to 1 MB each). `name` tells a migration's scans
   * apart: each goes on from the page where an interrupted run stopped, and one that an interrupted
   * run finished reads nothing (so a migration scans each name once).
   */
  scan(name: string, filter?: ScanFilter): AsyncGenerator<Item>;
  /**
   * Every item matching `filter`, from the first page on every run, saving no position: for what a
   * migration gathers before it writes (a lookup), which a run that goes on must read whole again.
   */
  scanWhole(filter?: ScanFilter): AsyncGenerator<Item>;
  /** Counts one item rewritten, and says so in the log every thousand. */
  moved(): void;
  /** Counts one item the migration could not rewrite and left as it was (the report says how many). */
  left(): void;
}

export interface Migration {
  /** Its number: the schema version of a table it has run on. */
  version: number;
  /** What it does, for the log and the report. */
  name: string;
  run(context: MigrationContext): Promise<void>;
}

export interface MigrationReport {
  /** The schema the table was at before. */
  from: number;
  /** The schema it is at now. */
  to: number;
  /** Items rewritten, by all the migrations run. */
  moved: number;
  /** Items they could not rewrite and left as they were (of a workspace whose workspace item is gone…). */
  left: number;
  /** The migrations run, `NNN name`. */
  ran: string[];
}

const cursorName = (migration: Migration, scan: string) => `${migration.version}:${scan}`;

/** Scans the table from `cursor`, saving the position reached after every page. */
async function* resumableScan(
  table: Table,
  save: (position: Record<string, unknown> | undefined) => Promise<void>,
  cursor: Record<string, unknown> | typeof FINISHED | undefined,
  filter: ScanFilter | undefined,
): AsyncGenerator<Item> {
  if (cursor === FINISHED) return;
  let startKey = cursor;
  do {
    table.roundTrips += 1;
    const page = await table.documents.send(
      new ScanCommand({
        TableName: table.name,
        ExclusiveStartKey: startKey,
        FilterExpression: filter?.condition,
        ExpressionAttributeNames: filter?.names,
        ExpressionAttributeValues: filter?.values,
      }),
    );
    yield* (page.Items ?? []) as Item[];
    startKey = page.LastEvaluatedKey;
    await save(startKey);
  } while (startKey);
}

/** The context a migration runs in: its scans resumable through the marker. */
function contextOf(
  table: Table,
  { clock, logger, secrets }: MigrationOptions,
  migration: Migration,
  marker: Marker,
  report: MigrationReport,
) {
  const context: MigrationContext = {
    table,
    clock,
    logger,
    secrets,
    scan: (name, filter) => {
      const key = cursorName(migration, name);
      const save = async (position: Record<string, unknown> | undefined) => {
        marker.cursors = { ...marker.cursors, [key]: position ?? FINISHED };
        await table.put({ ...SCHEMA_MARKER, ...marker });
      };
      return resumableScan(table, save, marker.cursors?.[key], filter);
    },
    scanWhole: (filter) => resumableScan(table, async () => {}, undefined, filter),
    moved: () => {
      report.moved += 1;
      if (report.moved % 1000 === 0) logger?.info('migrating the table', { migration: migration.name, moved: report.moved });
    },
    left: () => {
      report.left += 1;
    },
  };
  return context;
}

/**
 * Rewrites one item as `rewriteOf` answers for it (an update whose condition is that the item is
 * as read; `left` when it cannot be rewritten; undefined when nothing is left to do). When it
 * changed meanwhile, it is read again and tried again, three times in all: `moved` when written,
 * `current` when nothing is left to do (or it is gone), `left` when it cannot be or kept changing.
 */
export async function rewriteAsRead(
  table: Table,
  found: Item,
  rewriteOf: (item: Item) => { key: Key; input: UpdateInput } | 'left' | undefined,
): Promise<'moved' | 'current' | 'left'> {
  const key: Key = { pk: found.pk, sk: found.sk };
  let current: Item | undefined = found;
  for (let attempt = 0; current && attempt < 3; attempt += 1) {
    const rewrite = rewriteOf(current);
    if (!rewrite) return 'current';
    if (rewrite === 'left') return 'left';
    if (await conditionHeld(table.update(rewrite.key, rewrite.input))) return 'moved';
    current = await table.get<Item>(key, true);
  }
  return current ? 'left' : 'current';
}

/** Whether the table holds no item at all (one Scan of one item). */
async function isEmpty(table: Table): Promise<boolean> {
  table.roundTrips += 1;
  const page = await table.documents.send(new ScanCommand({ TableName: table.name, Limit: 1 }));
  return (page.Items ?? []).length === 0;
}

/** The schema version a list of migrations brings a table to. */
export function schemaVersionOf(migrations: readonly Migration[]): number {
  return Math.max(1, ...migrations.map((migration) => migration.version));
}

/** What the migrations run with besides the table (`MigrationContext`). */
interface MigrationOptions {
  clock: Clock;
  logger?: AppLogger;
  secrets?: Secrets;
}

/**
 * Runs, in order, each migration whose number is past the table's schema version; does nothing
 * (one read) when there is none.
 */
export async function runMigrations(table: Table, migrations: readonly Migration[], options: MigrationOptions): Promise<MigrationReport> {
  const marker: Marker = { ...(await table.get<Marker>(SCHEMA_MARKER, true)) };
  delete (marker as Partial<Key>).pk;
  delete (marker as Partial<Key>).sk;
  const latest = schemaVersionOf(migrations);
  if (marker.version === undefined && (await isEmpty(table))) {
    // A new table (a first start, a first deploy) has nothing of an older version: it starts at this one.
    await table.put({ ...SCHEMA_MARKER, version: latest, migrated_at: options.clock.now().toISOString() });
    return { from: latest, to: latest, moved: 0, left: 0, ran: [] };
  }
  const from = marker.version ?? 1;
  const report: MigrationReport = { from, to: from, moved: 0, left: 0, ran: [] };
  const due = [...migrations].filter((migration) => migration.version > from).sort((a, b) => a.version - b.version);
  for (const migration of due) {
    const label = `${String(migration.version).padStart(3, '0')} ${migration.name}`;
    options.logger?.info('migration started', { migration: label });
    await migration.run(contextOf(table, options, migration, marker, report));
    marker.version = migration.version;
    // Its scans' positions go with it (every position saved is of the migration under way).
    marker.cursors = {};
    await table.put({ ...SCHEMA_MARKER, ...marker, migrated_at: options.clock.now().toISOString() });
    report.to = migration.version;
    report.ran.push(label);
  }
  if (report.ran.length) options.logger?.info('table migrated', { ...report });
  return report;
}
