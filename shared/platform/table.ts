import type { DynamoDBClient } from '@aws-sdk/client-dynamodb';
import {
  DeleteCommand,
  DynamoDBDocumentClient,
  GetCommand,
  PutCommand,
  QueryCommand,
  UpdateCommand,
  type QueryCommandInput,
} from '@aws-sdk/lib-dynamodb';
import type { Clock } from './clock.js';
import { batchGetItems, batchPutItems } from './table-batch.js';
import type { Key } from './keys.js';

export { BatchIncompleteError, MAX_BATCH_RETRIES } from './table-batch.js';
export { conditionHeld, onConditionFailed, unlessConditionFailed } from './table-conditions.js';

export type { Key } from './keys.js';

export type Item = Key & Record<string, unknown>;

/** What an index copies of an item besides the keys: all of it, the attributes named, or nothing. */
type Projection = { type: 'ALL' } | { type: 'INCLUDE'; attributes: readonly string[] } | { type: 'KEYS_ONLY' };

/**
 * The table's global secondary indexes, named for what they serve. Each also has its name in the
 * table (`gsi1`…`gsi5`, keys `gsiNpk` / `gsiNsk`), which stays: DynamoDB cannot rename an index,
 * and a new one under another name is built one per deploy, answering incomplete pages while it
 * fills (docs/data-model.md, "Indexes"). Code names an index only by its purpose.
 */
const INDEXES = {
  /** An owner's items in order (whole items): an organisation's workspaces and invitations, a workspace's conversations and channels, an organisation's jobs by queue and state, the organisations with a chat app. */
  listings: { name: 'gsi1', projection: { type: 'ALL' } },
  /** An item by its id alone (whole items): a connection, a consumer; and a workspace's approvals by status. */
  lookups: { name: 'gsi2', projection: { type: 'ALL' } },
  /** Pending approvals by the time they expire (whole items: the expiry's job reads them). */
  approvalExpiries: { name: 'gsi3', projection: { type: 'ALL' } },
  /**
   * Cold conversations by the time they close: only what the sweep reads, all of which changes
   * with the keys, so a write that does not move the due time writes no entry (docs/capacity.md).
   */
  closes: { name: 'gsi4', projection: { type: 'INCLUDE', attributes: ['org_id', 'workspace_id', 'id', 'last_activity_at', 'due_at'] } },
  /**
   * Work waiting for its time, keys and organisation only: open conversations' cold moves (lazy:
   * put by a first question, moved by the sweep that finds one early: sweep/due-sweep.ts),
   * closed conversations' pending statistics, and the job ledger's pending jobs (jobs/pending.ts).
   */
  pending: { name: 'gsi5', projection: { type: 'INCLUDE', attributes: ['org_id'] } },
} as const satisfies Record<string, { name: string; projection: Projection }>;

export type IndexName = keyof typeof INDEXES;

/** The names of an index's key attributes in the table (`gsi5pk`, `gsi5sk`), as types: typed writes name them. */
type IndexKeyNames<I extends IndexName> = [`${(typeof INDEXES)[I]['name']}pk`, `${(typeof INDEXES)[I]['name']}sk`];

/** The attributes of an item's entry in `index`: its partition and sort key there. */
export function indexEntry<I extends IndexName>(index: I, pk: string, sk: string): Record<IndexKeyNames<I>[number], string> {
  const [pkName, skName] = indexAttributes(index);
  return { [pkName]: pk, [skName]: sk } as Record<IndexKeyNames<I>[number], string>;
}

/** The names of `index`'s key attributes in the table, for a write that takes an item out of it (REMOVE). */
export function indexAttributes<I extends IndexName>(index: I): IndexKeyNames<I> {
  const name = INDEXES[index].name;
  return [`${name}pk`, `${name}sk`] as IndexKeyNames<I>;
}

/** `index`'s key attributes as an entity's schema declares them, each of `schema` (a string, optional where an item may be out of it). */
export function indexSchema<I extends IndexName, S>(index: I, schema: S): Record<IndexKeyNames<I>[number], S> {
  const [pkName, skName] = indexAttributes(index);
  return { [pkName]: schema, [skName]: schema } as Record<IndexKeyNames<I>[number], S>;
}

/** The table's shape, shared by the local runtime (which creates it) and the CDK data construct. */
export const TABLE_KEY_SCHEMA = {
  partitionKey: 'pk',
  sortKey: 'sk',
  indexes: Object.values(INDEXES).map(({ name, projection }) => ({
    name,
    partitionKey: `${name}pk`,
    sortKey: `${name}sk`,
    projection: projection as Projection,
  })),
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

/**
 * How the document client converts items: attributes whose value is `undefined` are left out, and
 * a class instance inside an item is refused rather than stored as a map (an item itself is taken
 * attribute by attribute: `Table` spreads it first).
 */
const TRANSLATION = {
  marshallOptions: { removeUndefinedValues: true, convertClassInstanceToMap: false },
} as const;

/**
 * Access to the single table, over the AWS SDK's document client (which converts items to and from
 * the store's typed JSON). Only GetItem, BatchGetItem, Query, PutItem, UpdateItem and DeleteItem
 * exist here: there is deliberately no Scan. `roundTrips` counts calls to DynamoDB so benchmarks
 * can report them (the SDK's own retries of a call are not counted). The batch calls' retry loop
 * of unprocessed items is in `table-batch.ts`.
 */
export class Table {
  roundTrips = 0;
  /** Told the partition of each write this process made (once it is answered, made or not): what a process caches of a partition forgets it. */
  private readonly writeWatchers = new Set<(pk: string) => void>();
  /** The document client over `client`: items as plain values. */
  readonly documents: DynamoDBDocumentClient;

  constructor(
    readonly client: DynamoDBClient,
    readonly name: string,
    private readonly clock: Clock,
  ) {
    this.documents = DynamoDBDocumentClient.from(client, TRANSLATION);
  }

  /** An item whose `ttl` (epoch seconds) has passed is treated as absent, as DynamoDB's TTL is lazy. */
  private live<T extends object>(item: T | undefined): T | undefined {
    if (!item) return undefined;
    const ttl = (item as { ttl?: unknown }).ttl;
    if (typeof ttl === 'number' && ttl * 1000 <= this.clock.now().getTime()) return undefined;
    return item;
  }

  /** Calls `watcher` with the partition key of every write made through this table from now on; returns how to stop. */
  watchWrites(watcher: (pk: string) => void): () => void {
    this.writeWatchers.add(watcher);
    return () => this.writeWatchers.delete(watcher);
  }

  /** `write`'s outcome, the watchers told of its keys once it is known (a read begun before then stores nothing: brief-cache.ts). */
  private async wrote<T>(keys: readonly Key[], write: Promise<T>): Promise<T> {
    try {
      return await write;
    } finally {
      for (const watcher of this.writeWatchers) for (const key of keys) watcher(key.pk);
    }
  }

  async get<T extends object = Item>(key: Key, consistent = false): Promise<T | undefined> {
    this.roundTrips += 1;
    const result = await this.documents.send(new GetCommand({ TableName: this.name, Key: keyOf(key), ConsistentRead: consistent }));
    return this.live(result.Item as T | undefined);
  }

  /** Reads many items by key (any number: split into calls of 100, run in parallel, unprocessed keys retried). */
  async batchGet<T extends object = Item>(keys: Key[]): Promise<T[]> {
    const items = await batchGetItems(this, keys);
    return items.map((item) => this.live(item as T)).filter((item): item is T => !!item);
  }

  async put(item: Item | (Key & object), write: ConditionalWrite = {}): Promise<void> {
    this.roundTrips += 1;
    await this.wrote([item], this.documents.send(new PutCommand({ TableName: this.name, Item: { ...item }, ...conditionOf(write) })));
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
    const result = await this.wrote(
      [key],
      this.documents.send(
        new UpdateCommand({
          TableName: this.name,
          Key: keyOf(key),
          UpdateExpression: input.update,
          ...conditionOf(input),
          ReturnValues: returnValues,
        }),
      ),
    );
    return result.Attributes as T | undefined;
  }

  /**
   * Puts many items (BatchWriteItem: 25 per call, calls in parallel, unprocessed items retried
   * with backoff). Unconditional: for items whose keys are new or owned by the caller.
   */
  async batchPut(items: (Key & object)[]): Promise<void> {
    await this.wrote(items, batchPutItems(this, items));
  }

  /** Deletes an item and answers what it was (undefined when there was none): a single-use take. */
  async deleteReturningOld<T extends object = Item>(key: Key): Promise<T | undefined> {
    this.roundTrips += 1;
    const result = await this.wrote(
      [key],
      this.documents.send(new DeleteCommand({ TableName: this.name, Key: keyOf(key), ReturnValues: 'ALL_OLD' })),
    );
    return result.Attributes as T | undefined;
  }

  async delete(key: Key, write: ConditionalWrite = {}): Promise<void> {
    this.roundTrips += 1;
    await this.wrote([key], this.documents.send(new DeleteCommand({ TableName: this.name, Key: keyOf(key), ...conditionOf(write) })));
  }

  /** One page of a Query. */
  async query<T extends object = Item>(input: QueryInput): Promise<QueryPage<T>> {
    this.roundTrips += 1;
    const result = await this.documents.send(new QueryCommand(this.queryCommandInput(input)));
    const items = ((result.Items ?? []) as T[]).filter((item) => !!this.live(item));
    return { items, lastKey: result.LastEvaluatedKey };
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
    const query = { ...this.queryCommandInput(input), Select: 'COUNT' } as const;
    let startKey: Record<string, unknown> | undefined;
    do {
      this.roundTrips += 1;
      const result = await this.documents.send(new QueryCommand({ ...query, ExclusiveStartKey: startKey }));
      total += result.Count ?? 0;
      startKey = result.LastEvaluatedKey;
    } while (startKey);
    return total;
  }

  private queryCommandInput(input: QueryInput): QueryCommandInput {
    const [pkName, skName] = input.index ? indexAttributes(input.index) : ['pk', 'sk'];
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
      IndexName: input.index && INDEXES[input.index].name,
      KeyConditionExpression: condition,
      FilterExpression: input.filter,
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
      Limit: input.limit,
      ScanIndexForward: !input.newestFirst,
      ExclusiveStartKey: input.startKey,
      ConsistentRead: input.index ? undefined : input.consistent,
    };
  }
}

/** A key as the store takes it, attribute by attribute (as an item). */
function keyOf(key: Key): Key {
  return { ...key };
}

/** A write's condition as the store takes it: expression, names and values. */
function conditionOf(write: ConditionalWrite) {
  return {
    ConditionExpression: write.condition,
    ExpressionAttributeNames: write.names,
    ExpressionAttributeValues: write.values,
  };
}
