import type { Clock } from './clock.js';
import type { DynamoClient } from './store-http.js';
import { batchGetItems, batchPutItems } from './table-batch.js';
import { fromStore, fromStoreEach, toStore } from './table-codec.js';
import type { Key } from './keys.js';

export { BatchIncompleteError, MAX_BATCH_RETRIES } from './table-batch.js';

export type { Key } from './keys.js';

export type Item = Key & Record<string, unknown>;

/** Names of the generic global secondary indexes (`gsiNpk` / `gsiNsk`). */
const INDEXES = ['gsi1', 'gsi2', 'gsi3'] as const;
type IndexName = (typeof INDEXES)[number];

/**
 * The table's shape, shared by the local runtime (which creates it) and the CDK data construct.
 * Every index projects all attributes so a Query on it answers without a second read.
 */
export const TABLE_KEY_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: INDEXES.map((name) => ({ name, partitionKey: `${name}pk`, sortKey: `${name}sk` })),
  ttlAttribute: 'ttl',
} as const;

export interface ConditionalWrite {
  condition?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
}

export interface UpdateInput extends ConditionalWrite {
  update: string;
}

export interface QueryInput {
  index?: IndexName;
  /** Partition key value (of the table, or of `index`). */
  pk: string;
  /** Sort key condition. */
  sk?: { beginsWith: string } | { between: [string, string] } | { gte: string } | { lte: string };
  limit?: number;
  newestFirst?: boolean;
  startKey?: Record<string, unknown>;
  filter?: string;
  names?: Record<string, string>;
  values?: Record<string, unknown>;
  consistent?: boolean;
}

export interface QueryPage<T> {
  items: T[];
  /** Present when more items may follow. */
  lastKey?: Record<string, unknown>;
}

/** Thrown by `put`/`update`/`delete` when their condition does not hold. */
function isConditionFailed(error: unknown): boolean {
  return error instanceof Error && error.name === 'ConditionalCheckFailedException';
}

/**
 * A conditional write whose failed condition means something to the caller (usually "not found"):
 * that error instead of the store's. Any other error passes through.
 */
export async function onConditionFailed<T>(write: Promise<T>, failed: () => Error): Promise<T> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailed(error)) throw failed();
    throw error;
  }
}

/**
 * A conditional write whose failed condition is an expected outcome: `otherwise` instead of the
 * store's error. Any other error passes through.
 */
export async function unlessConditionFailed<T, F>(write: Promise<T>, otherwise: F): Promise<T | F> {
  try {
    return await write;
  } catch (error) {
    if (isConditionFailed(error)) return otherwise;
    throw error;
  }
}

/**
 * Access to the single table. Only GetItem, BatchGetItem, Query, PutItem, UpdateItem and
 * DeleteItem exist here: there is deliberately no Scan. `roundTrips` counts calls to DynamoDB
 * so benchmarks can report them. The batch calls' retry loop is in `table-batch.ts`; items and
 * values are converted to and from the store's typed JSON in `table-codec.ts`.
 */
export class Table {
  roundTrips = 0;

  constructor(
    readonly client: DynamoClient,
    readonly name: string,
    private readonly clock: Clock,
  ) {}

  /** An item whose `ttl` (epoch seconds) has passed is treated as absent, as DynamoDB's TTL is lazy. */
  private live<T extends object>(item: T | undefined): T | undefined {
    if (!item) return undefined;
    const ttl = (item as { ttl?: unknown }).ttl;
    if (typeof ttl === 'number' && ttl * 1000 <= this.clock.now().getTime()) return undefined;
    return item;
  }

  async get<T extends object = Item>(key: Key, consistent = false): Promise<T | undefined> {
    this.roundTrips += 1;
    const result = await this.client.send('GetItem', { TableName: this.name, Key: toStore(key), ConsistentRead: consistent });
    return this.live(fromStore<T>(result.Item));
  }

  /** Reads many items by key (any number: split into calls of 100, run in parallel, unprocessed keys retried). */
  async batchGet<T extends object = Item>(keys: Key[]): Promise<T[]> {
    const items = await batchGetItems(this, keys);
    return items.map((item) => this.live(item as T)).filter((item): item is T => !!item);
  }

  async put(item: Item | (Key & object), write: ConditionalWrite = {}): Promise<void> {
    this.roundTrips += 1;
    await this.client.send('PutItem', { TableName: this.name, Item: toStore(item), ...conditionOf(write) });
  }

  /** Puts `item` only if no item has its key yet. Returns false when one exists. */
  async putNew(item: Item | (Key & object)): Promise<boolean> {
    return unlessConditionFailed(
      this.put(item, { condition: 'attribute_not_exists(pk)' }).then(() => true),
      false,
    );
  }

  /** Applies an update expression; returns the item's attributes after the update. */
  async update<T extends object = Item>(key: Key, input: UpdateInput): Promise<T> {
    return (await this.updateReturning<T>(key, input, 'ALL_NEW')) as T;
  }

  /** Applies an update expression; returns the item as it was before (undefined if it did not exist). */
  async updateReturningOld<T extends object = Item>(key: Key, input: UpdateInput): Promise<T | undefined> {
    return this.updateReturning<T>(key, input, 'ALL_OLD');
  }

  private async updateReturning<T extends object>(
    key: Key,
    input: UpdateInput,
    returnValues: 'ALL_NEW' | 'ALL_OLD',
  ): Promise<T | undefined> {
    this.roundTrips += 1;
    const result = await this.client.send('UpdateItem', {
      TableName: this.name,
      Key: toStore(key),
      UpdateExpression: input.update,
      ...conditionOf(input),
      ReturnValues: returnValues,
    });
    return fromStore<T>(result.Attributes);
  }

  /**
   * Puts many items (BatchWriteItem: 25 per call, calls in parallel, unprocessed items retried
   * with backoff). Unconditional: for items whose keys are new or owned by the caller.
   */
  async batchPut(items: (Key & object)[]): Promise<void> {
    await batchPutItems(this, items);
  }

  /** Deletes an item and answers what it was (undefined when there was none): a single-use take. */
  async deleteReturningOld<T extends object = Item>(key: Key): Promise<T | undefined> {
    this.roundTrips += 1;
    const result = await this.client.send('DeleteItem', { TableName: this.name, Key: toStore(key), ReturnValues: 'ALL_OLD' });
    return fromStore<T>(result.Attributes);
  }

  async delete(key: Key, write: ConditionalWrite = {}): Promise<void> {
    this.roundTrips += 1;
    await this.client.send('DeleteItem', { TableName: this.name, Key: toStore(key), ...conditionOf(write) });
  }

  /** One page of a Query. */
  async query<T extends object = Item>(input: QueryInput): Promise<QueryPage<T>> {
    this.roundTrips += 1;
    const result = await this.client.send('Query', this.queryCommandInput(input));
    const items = fromStoreEach<T>(result.Items).filter((item) => !!this.live(item));
    return { items, lastKey: fromStore(result.LastEvaluatedKey) };
  }

  /** Every item a Query matches, following pages (for partitions known to stay small). */
  async queryAll<T extends object = Item>(input: Omit<QueryInput, 'startKey'>): Promise<T[]> {
    const items: T[] = [];
    let startKey: Record<string, unknown> | undefined;
    do {
      const page = await this.query<T>({ ...input, startKey });
      items.push(...page.items);
      startKey = page.lastKey;
      if (input.limit !== undefined && items.length >= input.limit) return items.slice(0, input.limit);
    } while (startKey);
    return items;
  }

  /** Number of items a Query matches (Select COUNT, following pages). */
  async count(input: Omit<QueryInput, 'startKey' | 'limit'>): Promise<number> {
    let total = 0;
    const query = { ...this.queryCommandInput(input), Select: 'COUNT' };
    // The page key stays in the store's form: it goes back as it came.
    let startKey: unknown;
    do {
      this.roundTrips += 1;
      const result = await this.client.send('Query', { ...query, ExclusiveStartKey: startKey });
      total += typeof result.Count === 'number' ? result.Count : 0;
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return total;
  }

  private queryCommandInput(input: QueryInput): Record<string, unknown> {
    const pkName = input.index ? `${input.index}pk` : 'pk';
    const skName = input.index ? `${input.index}sk` : 'sk';
    const names: Record<string, string> = { '#pk': pkName, ...input.names };
    const values: Record<string, unknown> = { ':pk': input.pk, ...input.values };
    let condition = '#pk = :pk';
    const sk = input.sk;
    if (sk) {
      names['#sk'] = skName;
      if ('beginsWith' in sk) {
        condition += ' AND begins_with(#sk, :sk)';
        values[':sk'] = sk.beginsWith;
      } else if ('between' in sk) {
        condition += ' AND #sk BETWEEN :skFrom AND :skTo';
        values[':skFrom'] = sk.between[0];
        values[':skTo'] = sk.between[1];
      } else if ('gte' in sk) {
        condition += ' AND #sk >= :sk';
        values[':sk'] = sk.gte;
      } else {
        condition += ' AND #sk <= :sk';
        values[':sk'] = sk.lte;
      }
    }
    return {
      TableName: this.name,
      IndexName: input.index,
      KeyConditionExpression: condition,
      FilterExpression: input.filter,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: toStore(values),
      Limit: input.limit,
      ScanIndexForward: !input.newestFirst,
      ExclusiveStartKey: input.startKey && toStore(input.startKey),
      ConsistentRead: input.index ? undefined : input.consistent,
    };
  }
}

/** A write's condition as the store takes it: expression, names, and typed values. */
function conditionOf(write: ConditionalWrite) {
  return {
    ConditionExpression: write.condition,
    ExpressionAttributeNames: write.names,
    ExpressionAttributeValues: write.values && toStore(write.values),
  };
}
