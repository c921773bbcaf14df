import type { Deps } from '../deps.js';
import { dayOf } from '../platform/clock.js';
import { readShardedPage } from '../platform/sharded-pages.js';
import type { Item } from '../platform/table.js';
import { activityQueries, toActivity, type ActivityEntry, type ActivityFilters } from './activity.js';
import { getWorkspaceItem, type WorkspaceItem } from './workspaces.js';

/*
 * The audit log as CSV (RFC 4180: CRLF line ends, a field quoted when it holds a comma, a quote
 * or a line break, its quotes doubled), for a spreadsheet: a field that starts like a formula is
 * made text first.
 */

/** Rows an export holds at most; past them the answer says `X-Truncated: true`. */
export const EXPORT_ROWS = 10_000;
/** Entries an export reads at most when filtering (the filter is applied after reading). */
const EXPORT_READ = 100_000;

const COLUMNS: [string, (entry: ActivityEntry) => string | number][] = [
  ['created_at', (entry) => entry.created_at],
  ['id', (entry) => entry.id],
  ['user_id', (entry) => entry.user_id ?? ''],
  ['user_name', (entry) => entry.user_name],
  ['query', (entry) => entry.query],
  ['tools_called', (entry) => entry.tools_called.join(' ')],
  ['connections_hit', (entry) => entry.connections_hit.join(' ')],
  ['tokens_input', (entry) => entry.tokens.input],
  ['tokens_output', (entry) => entry.tokens.output],
  ['tokens_cache_read', (entry) => entry.tokens.cache_read],
  ['tokens_cache_write', (entry) => entry.tokens.cache_write],
  ['cost_usd', (entry) => entry.cost_usd],
  ['duration_ms', (entry) => entry.duration_ms],
  ['error', (entry) => entry.error ?? ''],
  [
    'approvals',
    (entry) =>
      entry.approvals
        .map((approval) => `${approval.tool}: ${approval.status}${approval.decided_by ? ` by ${approval.decided_by}` : ''}`)
        .join('; '),
  ],
  // Last, so that the columns before it keep their places in sheets made from earlier exports.
  ['conversation_id', (entry) => entry.conversation_id ?? ''],
  // A person's tool call through the MCP gateway (empty for a query): after the columns of before.
  ['kind', (entry) => entry.kind],
  ['client', (entry) => entry.client ?? ''],
  ['tool', (entry) => entry.tool ?? ''],
  ['outcome', (entry) => entry.outcome ?? ''],
];

/**
 * One CSV field. A text a spreadsheet would run as a formula (starting with = + - @, a tab or a
 * carriage return) gets a leading `'`, so it shows as the text it is (OWASP, "CSV Injection").
 */
function csvField(value: string | number): string {
  if (typeof value === 'number') return String(value);
  const text = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(text) ? `"${text.replaceAll('"', '""')}"` : text;
}

const csvLine = (fields: (string | number)[]) => `${fields.map(csvField).join(',')}\r\n`;

/** The entries of the filters, newest first, up to `EXPORT_ROWS` (reading at most `EXPORT_READ`). */
async function readEntries(deps: Deps, orgId: string, workspaceId: string, filters: ActivityFilters) {
  const page = await readShardedPage<Item>(
    deps.table,
    activityQueries(orgId, workspaceId, filters),
    { limit: EXPORT_ROWS },
    { maxRead: EXPORT_READ },
  );
  return { items: page.items, truncated: page.nextCursor !== null };
}

/**
 * `GET /api/workspaces/:id/activity.csv`: the entries the same filters list, as CSV with a header
 * row, and the file's name (`activity-<workspace>-<from>-<to>.csv`: `start` before the first
 * entry, today without `to`).
 */
export async function exportActivity(deps: Deps, orgId: string, workspaceId: string, filters: ActivityFilters, known?: WorkspaceItem) {
  const [, { items, truncated }] = await Promise.all([
    // The workspace, unless the caller read it already (a member's filters).
    known ?? getWorkspaceItem(deps, orgId, workspaceId),
    readEntries(deps, orgId, workspaceId, filters),
  ]);
  const lines = [csvLine(COLUMNS.map(([title]) => title))];
  for (const item of items) {
    const entry = toActivity(item);
    lines.push(csvLine(COLUMNS.map(([, value]) => value(entry))));
  }
  const name = `activity-${workspaceId}-${filters.from ?? 'start'}-${filters.to ?? dayOf(deps.clock.now())}.csv`;
  // The name goes in a header as a quoted string: nothing but what a file name needs.
  const filename = name.replace(/[^A-Za-z0-9._-]/g, '_');
  return { csv: lines.join(''), truncated, filename };
}
