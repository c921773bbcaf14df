import { Agent, createServer, request as httpRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';

/**
 * A store that bills every write as DynamoDB on-demand would (issue 35): dynalite in memory on a
 * loopback port, and in front of it an HTTP proxy (what `DYNAMODB_ENDPOINT` takes) that forwards
 * each request unchanged and answers dynalite's answer unchanged. For each write (PutItem,
 * UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems) it reads the items the write touches
 * before and after it (consistent GetItems sent straight to dynalite), writes to one key being
 * passed on one at a time, and counts:
 * - the base item: 1 WCU per started KB of the larger of the old and the new item (a write whose
 *   condition failed: the same, of the old item and the item it would have put);
 * - each global secondary index (as DescribeTable answers them, with their projections): an entry
 *   put (absent → present), deleted (present → absent), both (its key changed) or updated (same key,
 *   a projected attribute changed), each 1 WCU per started KB of the entry (projected attributes +
 *   100 bytes);
 * - TransactWriteItems: twice.
 * Units go to partitions: `table:<pk>` for the base item, `<index>:<index pk>` for an index entry
 * (a deleted entry: its old key).
 */

/** An attribute value as the store's JSON carries it. */
interface WireValue {
  S?: string;
  N?: string;
  B?: string;
  SS?: string[];
  NS?: string[];
  BS?: string[];
  M?: Record<string, WireValue>;
  L?: WireValue[];
  BOOL?: boolean;
  NULL?: boolean;
}
export type WireItem = Record<string, WireValue>;

/** A global secondary index as the accounting needs it: its key attributes and what it projects. */
export interface IndexShape {
  name: string;
  keys: string[];
  /** `ALL`, or the attributes projected besides the table's and the index's keys (`KEYS_ONLY`: none). */
  projected: 'ALL' | string[];
}

const TABLE_KEYS = ['pk', 'sk'];
const KB = 1024;
const INDEX_ENTRY_OVERHEAD = 100;

const utf8 = (text: string) => Buffer.byteLength(text, 'utf8');

/** Size of a number as DynamoDB counts it: about one byte per two significant digits, plus one. */
function numberSize(text: string): number {
  const digits = text
    .replace(/^[-+]/, '')
    .replace(/[eE].*$/, '')
    .replace('.', '')
    .replace(/^0+/, '')
    .replace(/0+$/, '');
  return Math.ceil(Math.max(digits.length, 1) / 2) + 1;
}

/** Size of one attribute value (without its name), by DynamoDB's item size rules. */
function valueSize(value: WireValue): number {
  if (value.S !== undefined) return utf8(value.S);
  if (value.N !== undefined) return numberSize(value.N);
  if (value.B !== undefined) return Buffer.from(value.B, 'base64').length;
  if (value.SS) return value.SS.reduce((sum, entry) => sum + utf8(entry), 0);
  if (value.NS) return value.NS.reduce((sum, entry) => sum + numberSize(entry), 0);
  if (value.BS) return value.BS.reduce((sum, entry) => sum + Buffer.from(entry, 'base64').length, 0);
  if (value.BOOL !== undefined || value.NULL !== undefined) return 1;
  if (value.M) return 3 + Object.entries(value.M).reduce((sum, [name, entry]) => sum + utf8(name) + valueSize(entry) + 1, 0);
  if (value.L) return 3 + value.L.reduce((sum, entry) => sum + valueSize(entry) + 1, 0);
  return 0;
}

/** Size of an item in bytes: each attribute's name (UTF-8) and value. */
export function itemSize(item: WireItem | undefined): number {
  if (!item) return 0;
  return Object.entries(item).reduce((sum, [name, value]) => sum + utf8(name) + valueSize(value), 0);
}

/** Started KB, at least 1. */
const units = (bytes: number) => Math.max(1, Math.ceil(bytes / KB));

const keyString = (value: WireValue | undefined) => value?.S ?? value?.N ?? value?.B ?? '';

/** The index entry of an item (its projected attributes), or undefined when the item is not in the index. */
function entryOf(item: WireItem | undefined, index: IndexShape): WireItem | undefined {
  if (!item || index.keys.some((name) => item[name] === undefined)) return undefined;
  if (index.projected === 'ALL') return item;
  const entry: WireItem = {};
  for (const name of [...TABLE_KEYS, ...index.keys, ...index.projected]) {
    const value = item[name];
    if (value !== undefined) entry[name] = value;
  }
  return entry;
}

const sameValue = (a: WireItem, b: WireItem) => JSON.stringify(sortedItem(a)) === JSON.stringify(sortedItem(b));
const sortedItem = (item: WireItem) => Object.fromEntries(Object.entries(item).sort(([a], [b]) => (a < b ? -1 : 1)));

/** One billed write: its units and the partition they go to. */
export interface WriteUnit {
  /** `table`, or the index's name. */
  target: string;
  kind: 'item' | 'put' | 'delete' | 'update';
  partition: string;
  wcu: number;
}

/**
 * What one item's write costs, from the item before and after it. `succeeded` false: a write whose
 * condition failed (the base item only, at the size of the larger of `before` and `attempted`).
 */
export function writeUnits(
  before: WireItem | undefined,
  after: WireItem | undefined,
  indexes: IndexShape[],
  succeeded = true,
  attempted?: WireItem,
): WriteUnit[] {
  const pk = keyString((after ?? before ?? attempted)?.pk);
  const base = Math.max(itemSize(before), itemSize(succeeded ? after : attempted));
  const written: WriteUnit[] = [{ target: 'table', kind: 'item', partition: `table:${pk}`, wcu: units(base) }];
  if (!succeeded) return written;
  for (const index of indexes) {
    const old = entryOf(before, index);
    const now = entryOf(after, index);
    const hashKey = index.keys[0] ?? '';
    const entry = (kind: WriteUnit['kind'], item: WireItem, bytes: number): WriteUnit => ({
      target: index.name,
      kind,
      partition: `${index.name}:${keyString(item[hashKey])}`,
      wcu: units(bytes + INDEX_ENTRY_OVERHEAD),
    });
    if (!old && !now) continue;
    if (!old && now) written.push(entry('put', now, itemSize(now)));
    else if (old && !now) written.push(entry('delete', old, itemSize(old)));
    else if (old && now) {
      const keyChanged = index.keys.some((name) => keyString(old[name]) !== keyString(now[name]));
      if (keyChanged) written.push(entry('delete', old, itemSize(old)), entry('put', now, itemSize(now)));
      else if (!sameValue(old, now)) written.push(entry('update', now, Math.max(itemSize(old), itemSize(now))));
    }
  }
  return written;
}

export interface WriteTotals {
  /** Write units in all, of base items, of index entries. */
  wcu: number;
  baseWcu: number;
  indexWcu: number;
  /** Items written (each item of a batch or transaction counts once). */
  items: number;
  /** Write units per partition (`table:<pk>`, `<index>:<index pk>`). */
  partitions: Map<string, number>;
  /** Write units per item type (`<pk prefix> <sk prefix>`), base and index. */
  itemTypes: Map<string, { base: number; index: number; items: number }>;
  /** Index entries put, deleted and updated, per index. */
  indexWrites: Map<string, { put: number; delete: number; update: number }>;
  /** Requests forwarded, per operation (reads too). */
  operations: Map<string, number>;
}

const emptyTotals = (): WriteTotals => ({
  wcu: 0,
  baseWcu: 0,
  indexWcu: 0,
  items: 0,
  partitions: new Map(),
  itemTypes: new Map(),
  indexWrites: new Map(),
  operations: new Map(),
});

/** `<pk prefix> <sk prefix>`: the kind of an item, its ids and times left out. */
function itemTypeOf(pk: string, sk: string): string {
  const prefix = (key: string) => (/^\d{4}-\d{2}-\d{2}T/.test(key) ? '<time>#…' : (key.split('#')[0] ?? key));
  return `${prefix(pk)} ${prefix(sk)}`;
}

export interface AccountingStore {
  /** What `DYNAMODB_ENDPOINT` takes: the proxy's URL. */
  endpoint: string;
  /** What was counted since the start or the last `reset`. */
  totals(): WriteTotals;
  reset(): void;
  /** Writes under way (forwarded or being accounted). */
  readonly pending: number;
  /** When the last write was forwarded (`performance.now()`). */
  readonly lastWriteAt: number;
  /** Waits until no write has passed for `quietMs` and none is being accounted. */
  settle(quietMs?: number): Promise<void>;
  close(): Promise<void>;
}

type Json = Record<string, any>;

/** One item a write touches: its table and key, and what a Put would write. */
interface Touched {
  table: string;
  key: WireItem;
  put?: WireItem;
}

const WRITES = new Set(['PutItem', 'UpdateItem', 'DeleteItem', 'BatchWriteItem', 'TransactWriteItems']);

/** The items a write request touches. */
function touchedBy(operation: string, body: Json): Touched[] {
  const keyOf = (item: WireItem): WireItem => Object.fromEntries(TABLE_KEYS.map((name) => [name, item[name] ?? {}]));
  switch (operation) {
    case 'PutItem':
      return [{ table: body.TableName, key: keyOf(body.Item), put: body.Item }];
    case 'UpdateItem':
    case 'DeleteItem':
      return [{ table: body.TableName, key: keyOf(body.Key) }];
    case 'BatchWriteItem':
      return Object.entries((body.RequestItems ?? {}) as Record<string, Json[]>).flatMap(([table, requests]) =>
        requests.map((request) =>
          request.PutRequest
            ? { table, key: keyOf(request.PutRequest.Item), put: request.PutRequest.Item }
            : { table, key: keyOf(request.DeleteRequest?.Key ?? {}) },
        ),
      );
    case 'TransactWriteItems':
      return ((body.TransactItems ?? []) as Json[]).flatMap((entry): Touched[] => {
        if (entry.Put) return [{ table: entry.Put.TableName, key: keyOf(entry.Put.Item), put: entry.Put.Item }];
        const write = entry.Update ?? entry.Delete;
        return write ? [{ table: write.TableName, key: keyOf(write.Key) }] : [];
      });
    default:
      return [];
  }
}

const idOf = (touched: Touched) => `${touched.table}\u0000${JSON.stringify(touched.key)}`;

export async function startAccountingStore(): Promise<AccountingStore> {
  const store = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const storePort = (store.address() as AddressInfo).port;
  const agent = new Agent({ keepAlive: true, maxSockets: 64 });
  let totals = emptyTotals();
  const state = { pending: 0, lastWriteAt: performance.now() };
  /** The last write of each item key: a write waits for the ones before it on its keys. */
  const chains = new Map<string, Promise<void>>();
  const indexesOf = new Map<string, Promise<IndexShape[]>>();

  /** One request to dynalite: status, headers and body. */
  const send = (headers: IncomingMessage['headers'], body: Buffer) =>
    new Promise<{ status: number; headers: IncomingMessage['headers']; body: Buffer }>((resolve, reject) => {
      const upstream = httpRequest(
        { host: '127.0.0.1', port: storePort, method: 'POST', path: '/', headers: { ...headers, 'content-length': body.length }, agent },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 500, headers: response.headers, body: Buffer.concat(chunks) }));
          response.on('error', reject);
        },
      );
      upstream.on('error', reject);
      upstream.end(body);
    });

  /** A call of the accounting's own, straight to dynalite (not counted). */
  const call = async (operation: string, input: Json): Promise<Json> => {
    const answer = await send(
      {
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
        'x-amz-date': '20200101T000000Z',
        authorization:
          'AWS4-HMAC-SHA256 Credential=accounting/20200101/us-east-1/dynamodb/aws4_request, SignedHeaders=host;x-amz-date, Signature=0',
      },
      Buffer.from(JSON.stringify(input)),
    );
    const json = JSON.parse(answer.body.toString('utf8') || '{}') as Json;
    if (answer.status !== 200) throw new Error(`${operation} answered ${answer.status}: ${answer.body.toString('utf8')}`);
    return json;
  };

  const indexes = (table: string) => {
    let known = indexesOf.get(table);
    if (!known) {
      known = call('DescribeTable', { TableName: table }).then((described) =>
        ((described.Table?.GlobalSecondaryIndexes ?? []) as Json[]).map((index) => ({
          name: String(index.IndexName),
          // The hash key first.
          keys: [...(index.KeySchema as Json[])]
            .sort((a, b) => (a.KeyType === 'HASH' ? -1 : b.KeyType === 'HASH' ? 1 : 0))
            .map((key) => String(key.AttributeName)),
          projected: index.Projection?.ProjectionType === 'ALL' ? 'ALL' : ((index.Projection?.NonKeyAttributes ?? []) as string[]),
        })),
      );
      indexesOf.set(table, known);
    }
    return known;
  };

  const read = async (touched: Touched): Promise<WireItem | undefined> =>
    (await call('GetItem', { TableName: touched.table, Key: touched.key, ConsistentRead: true })).Item as WireItem | undefined;

  const count = (
    operation: string,
    touched: Touched[],
    before: (WireItem | undefined)[],
    after: (WireItem | undefined)[],
    answer: Json,
    ok: boolean,
  ) =>
    Promise.all(touched.map((item) => indexes(item.table))).then((shapes) => {
      const failedCondition = !ok && /ConditionalCheckFailed|TransactionCanceled/.test(String(answer.__type ?? ''));
      if (!ok && !failedCondition) return;
      const unprocessed = new Set(
        Object.entries((answer.UnprocessedItems ?? {}) as Record<string, Json[]>).flatMap(([table, requests]) =>
          requests.map((request) =>
            idOf({ table, key: touchedBy('BatchWriteItem', { RequestItems: { [table]: [request] } })[0]?.key ?? {} }),
          ),
        ),
      );
      const factor = operation === 'TransactWriteItems' ? 2 : 1;
      touched.forEach((item, at) => {
        if (unprocessed.has(idOf(item))) return;
        const pk = keyString(item.key.pk);
        const type = itemTypeOf(pk, keyString(item.key.sk));
        const typeTotals = totals.itemTypes.get(type) ?? { base: 0, index: 0, items: 0 };
        typeTotals.items += 1;
        totals.items += 1;
        for (const unit of writeUnits(before[at], after[at], shapes[at] ?? [], ok, item.put)) {
          const wcu = unit.wcu * factor;
          totals.wcu += wcu;
          totals.partitions.set(unit.partition, (totals.partitions.get(unit.partition) ?? 0) + wcu);
          if (unit.target === 'table') {
            totals.baseWcu += wcu;
            typeTotals.base += wcu;
          } else {
            totals.indexWcu += wcu;
            typeTotals.index += wcu;
            const writes = totals.indexWrites.get(unit.target) ?? { put: 0, delete: 0, update: 0 };
            if (unit.kind !== 'item') writes[unit.kind] += 1;
            totals.indexWrites.set(unit.target, writes);
          }
        }
        totals.itemTypes.set(type, typeTotals);
      });
    });

  /** Forwards a write, accounted: waits for the writes before it on its keys, reads before and after. */
  const forwardWrite = async (operation: string, headers: IncomingMessage['headers'], body: Buffer) => {
    let touched: Touched[] = [];
    try {
      touched = touchedBy(operation, JSON.parse(body.toString('utf8')) as Json);
    } catch {
      // Not JSON the accounting understands: passed on, not counted.
    }
    const ids = [...new Set(touched.map(idOf))];
    const previous = ids.map((id) => chains.get(id));
    let release = () => {};
    const done = new Promise<void>((resolve) => (release = resolve));
    for (const id of ids) chains.set(id, done);
    state.pending += 1;
    state.lastWriteAt = performance.now();
    try {
      await Promise.all(previous);
      const before = await Promise.all(touched.map(read));
      const answer = await send(headers, body);
      state.lastWriteAt = performance.now();
      // The answer goes back at once; the item's next write waits until this one is accounted.
      void (async () => {
        try {
          const after = await Promise.all(touched.map(read));
          const json = JSON.parse(answer.body.toString('utf8') || '{}') as Json;
          await count(operation, touched, before, after, json, answer.status === 200);
        } catch (error) {
          console.error(`write accounting: ${operation}: ${String(error)}`);
        } finally {
          for (const id of ids) if (chains.get(id) === done) chains.delete(id);
          state.pending -= 1;
          state.lastWriteAt = performance.now();
          release();
        }
      })();
      return answer;
    } catch (error) {
      for (const id of ids) if (chains.get(id) === done) chains.delete(id);
      state.pending -= 1;
      release();
      throw error;
    }
  };

  const proxy = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const operation = /DynamoDB_\d+\.(\w+)/.exec(String(req.headers['x-amz-target'] ?? ''))?.[1] ?? '?';
      totals.operations.set(operation, (totals.operations.get(operation) ?? 0) + 1);
      const headers = { ...req.headers };
      delete headers.connection;
      delete headers['transfer-encoding'];
      const answered = WRITES.has(operation) ? forwardWrite(operation, headers, body) : send(headers, body);
      answered.then(
        (answer) => {
          const out = { ...answer.headers };
          delete out.connection;
          delete out['keep-alive'];
          delete out['transfer-encoding'];
          res.writeHead(answer.status, { ...out, 'content-length': answer.body.length });
          res.end(answer.body);
        },
        (error: unknown) => {
          res.writeHead(502, { 'content-type': 'text/plain' });
          res.end(String(error));
        },
      );
    });
  });
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  const { port } = proxy.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    totals: () => totals,
    reset() {
      totals = emptyTotals();
    },
    get pending() {
      return state.pending;
    },
    get lastWriteAt() {
      return state.lastWriteAt;
    },
    async settle(quietMs = 2000) {
      while (state.pending > 0 || performance.now() - state.lastWriteAt < quietMs) {
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
    },
    async close() {
      proxy.closeAllConnections();
      await new Promise<void>((resolve) => proxy.close(() => resolve()));
      agent.destroy();
      await new Promise<void>((resolve) => store.close(() => resolve()));
    },
  };
}
