import { BatchGetCommand, BatchWriteCommand, type DynamoDBDocumentClient } from '@aws-sdk/lib-dynamodb';
import type { Key } from './keys.js';
import { jitteredBackoff } from './timing.js';

/*
 * The batch calls of `Table` (BatchGetItem, BatchWriteItem): split into the store's per-call
 * limits, run in parallel, and the unprocessed part of each call retried with capped, jittered
 * backoff until it is done or `MAX_BATCH_RETRIES` retries have passed. (The SDK retries a call that
 * failed; a call that succeeded with items left unprocessed is this loop's to send again.)
 */

/** Most keys one BatchGetItem call takes. */
const GET_CHUNK = 100;
/** Most requests one BatchWriteItem call takes. */
const WRITE_CHUNK = 25;

/** Retries of the unprocessed part of a batch call, after the first call, before giving up. */
export const MAX_BATCH_RETRIES = 8;

/** Raised when a batch call still leaves items unprocessed after `MAX_BATCH_RETRIES` retries (sustained throttling). */
export class BatchIncompleteError extends Error {
  constructor(what: 'read' | 'write', left: number) {
    super(`the store left ${left} item${left === 1 ? '' : 's'} of a batch ${what} unprocessed after ${MAX_BATCH_RETRIES} retries`);
    this.name = 'BatchIncompleteError';
  }
}

/** What the batch calls need of the table: its document client, its name, and the round-trip count to add to. */
export interface BatchTable {
  readonly documents: DynamoDBDocumentClient;
  readonly name: string;
  roundTrips: number;
}

/**
 * Waits before retry `attempt` of a batch call's unprocessed items: exponential backoff with full
 * jitter (so parallel callers throttled together do not retry together), capped at 1 s, and at
 * most `MAX_BATCH_RETRIES` retries.
 */
export async function backOffBeforeRetry(attempt: number, left: number, what: 'read' | 'write'): Promise<void> {
  if (attempt === 0) return;
  if (attempt > MAX_BATCH_RETRIES) throw new BatchIncompleteError(what, left);
  await jitteredBackoff(attempt);
}

function chunksOf<T>(all: T[], size: number): T[][] {
  const chunks: T[][] = [];
  for (let start = 0; start < all.length; start += size) chunks.push(all.slice(start, start + size));
  return chunks;
}

/** Reads many items by key (any number, duplicates read once); items as stored, expired ones included. */
export async function batchGetItems(table: BatchTable, keys: Key[]): Promise<object[]> {
  const unique = [...new Map(keys.map((key) => [`${key.pk}\u0000${key.sk}`, key])).values()];
  const pages = await Promise.all(chunksOf(unique, GET_CHUNK).map((chunk) => batchGetChunk(table, chunk)));
  return pages.flat();
}

async function batchGetChunk(table: BatchTable, keys: Key[]): Promise<object[]> {
  const found: object[] = [];
  // Unprocessed keys come back as plain values, as they went, and are sent again as they are.
  let pending: Record<string, unknown>[] = keys.map((key) => ({ ...key }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    await backOffBeforeRetry(attempt, pending.length, 'read');
    table.roundTrips += 1;
    const result = await table.documents.send(new BatchGetCommand({ RequestItems: { [table.name]: { Keys: pending } } }));
    found.push(...(result.Responses?.[table.name] ?? []));
    pending = result.UnprocessedKeys?.[table.name]?.Keys ?? [];
  }
  return found;
}

/** Puts many items, unconditionally. */
export async function batchPutItems(table: BatchTable, items: (Key & object)[]): Promise<void> {
  await Promise.all(chunksOf(items, WRITE_CHUNK).map((chunk) => batchPutChunk(table, chunk)));
}

async function batchPutChunk(table: BatchTable, items: (Key & object)[]): Promise<void> {
  let pending = items.map((item) => ({ PutRequest: { Item: { ...item } as Record<string, unknown> } }));
  for (let attempt = 0; pending.length > 0; attempt += 1) {
    await backOffBeforeRetry(attempt, pending.length, 'write');
    table.roundTrips += 1;
    const result = await table.documents.send(new BatchWriteCommand({ RequestItems: { [table.name]: pending } }));
    pending = (result.UnprocessedItems?.[table.name] ?? []) as typeof pending;
  }
}
