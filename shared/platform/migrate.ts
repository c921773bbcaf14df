import { ScanCommand } from '@aws-sdk/lib-dynamodb';
import { keys } from './keys.js';
import type { AppLogger } from './logger.js';
import type { Item, Table } from './table.js';

/*
 * Migrations of stored data, run before a new version serves: by the local runtime at its start,
 * on AWS by the deploy's migration function (functions/migrate/handler.ts, lib/migration.ts). Each is
 * idempotent and resumable: it moves items one by one (put the new, then delete the old), so a
 * run stopped half-way is finished by the next, and the schema marker is written last.
 *
 * This is the one place that reads the whole table (Scan): `Table` deliberately has none, since
 * nothing on a request's path may.
 */

/** The schema this version reads. 2: workspace partitions carry their organisation (`WS#<org>#<ws>`). */
export const SCHEMA_VERSION = 2;

/** Partition prefixes whose next segment was the workspace id before version 2. */
const WORKSPACE_PREFIXES = ['WS#', 'WSSTAT#', 'WSACT#', 'WSGAP#', 'WSVIOL#', 'WSAPPR#', 'CONV#', 'FEEDBACK#', 'WSCONV#', 'WSCHANNELS#'];
/** Organisation ids are `org_<…>` (shared/auth/accounts.ts); legacy workspace ids are `ws-<slug>`. */
const ORG_PREFIX = 'org_';

export interface MigrationReport {
  /** The schema the table was at before. */
  from: number;
  /** Items rewritten under new keys (or with new index attributes). */
  moved: number;
  /** Items of a workspace whose workspace item is gone: left as they were. */
  orphans: number;
}

/** Scans every item of the table (pages of up to 1 MB), with an optional filter. */
async function* scan(table: Table, filter?: { expression: string; values: Record<string, unknown> }): AsyncGenerator<Item> {
  let startKey: Record<string, unknown> | undefined;
  do {
    table.roundTrips += 1;
    const page = await table.documents.send(
      new ScanCommand({
        TableName: table.name,
        ExclusiveStartKey: startKey,
        ...(filter ? { FilterExpression: filter.expression, ExpressionAttributeValues: filter.values } : {}),
      }),
    );
    yield* (page.Items ?? []) as Item[];
    startKey = page.LastEvaluatedKey;
  } while (startKey);
}

/**
 * `<prefix><ws>…` → `<prefix><org>#<ws>…` when the value is a key of version 1 (its workspace
 * segment is not an organisation id); undefined when it is not such a key or is already new.
 */
function scopedKey(value: unknown, orgOf: (workspaceId: string) => string | undefined): string | undefined | null {
  if (typeof value !== 'string') return undefined;
  const prefix = WORKSPACE_PREFIXES.find((candidate) => value.startsWith(candidate));
  if (!prefix) return undefined;
  const rest = value.slice(prefix.length);
  if (rest.startsWith(ORG_PREFIX)) return undefined;
  const workspaceId = rest.split('#')[0] ?? '';
  const orgId = orgOf(workspaceId);
  return orgId ? `${prefix}${orgId}#${rest}` : null;
}

/** A due-index sort key of version 1, `<time>#<ws>#<id>`, with the organisation after the time. */
function scopedDueSortKey(item: Item): string | undefined {
  const value = item.gsi3sk;
  if (typeof value !== 'string' || typeof item.org_id !== 'string') return undefined;
  const parts = value.split('#');
  if (parts.length !== 3) return undefined;
  return `${parts[0]}#${item.org_id}#${parts[1]}#${parts[2]}`;
}

/** The item under version 2's keys, or undefined when it needs no change (null: its workspace is unknown). */
function migrated(item: Item, orgOf: (workspaceId: string) => string | undefined): Item | undefined | null {
  const next: Item = { ...item };
  let changed = false;
  for (const attribute of ['pk', 'gsi1pk', 'gsi2pk'] as const) {
    const scoped = scopedKey(item[attribute], orgOf);
    if (scoped === null) return null;
    if (scoped !== undefined) {
      next[attribute] = scoped;
      changed = true;
    }
  }
  const due = scopedDueSortKey(item);
  if (due) {
    next.gsi3sk = due;
    changed = true;
  }
  return changed ? next : undefined;
}

/** Brings the table to `SCHEMA_VERSION`; does nothing (one read) when it is there. */
export async function migrateStore(table: Table, logger?: AppLogger): Promise<MigrationReport> {
  const marker = await table.get<{ version?: number }>(keys.schemaVersion(), true);
  const from = marker?.version ?? 1;
  if (from >= SCHEMA_VERSION) return { from, moved: 0, orphans: 0 };
  // Each workspace's organisation, from the workspace items of version 1 (`WS#<ws>`, `META`).
  const organisations = new Map<string, string>();
  const metas = scan(table, { expression: 'sk = :meta AND begins_with(pk, :ws)', values: { ':meta': 'META', ':ws': 'WS#' } });
  for await (const item of metas) {
    const workspaceId = item.pk.slice('WS#'.length);
    if (!workspaceId.startsWith(ORG_PREFIX) && typeof item.org_id === 'string') organisations.set(workspaceId, item.org_id);
  }
  const report: MigrationReport = { from, moved: 0, orphans: 0 };
  for await (const item of scan(table)) {
    // Suffix counters of the global workspace ids: ids are claimed per organisation now.
    if (item.pk.startsWith('SLUG#ws#')) {
      await table.delete({ pk: item.pk, sk: item.sk });
      continue;
    }
    const next = migrated(item, (workspaceId) => organisations.get(workspaceId));
    if (next === null) report.orphans += 1;
    if (!next) continue;
    await table.put(next);
    if (next.pk !== item.pk) await table.delete({ pk: item.pk, sk: item.sk });
    report.moved += 1;
    if (report.moved % 1000 === 0) logger?.info('migrating the table', { moved: report.moved });
  }
  await table.put({ ...keys.schemaVersion(), version: SCHEMA_VERSION, migrated_at: new Date().toISOString() });
  if (report.moved || report.orphans) logger?.info('table migrated', { ...report, to: SCHEMA_VERSION });
  return report;
}
