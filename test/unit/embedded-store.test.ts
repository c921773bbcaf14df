import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openEmbeddedStore, type EmbeddedStore } from '../../bin/embedded-store.js';
import { memoizeDynaliteParsers, memoized } from '../../bin/embedded-store-parse.js';
import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { DynamoClient, StoreError } from '../../shared/platform/store-http.js';
import { ensureTable } from '../../shared/platform/table-create.js';

/**
 * The embedded store (dynalite called in this process) against dynalite's own HTTP server: the
 * same calls answer the same, errors included; and the memo of parsed expressions answers what
 * a fresh parse does.
 */

const require = createRequire(import.meta.url);

let embedded: EmbeddedStore;
let server: Awaited<ReturnType<typeof startEmbeddedStore>>;
let direct: DynamoClient;
let overHttp: DynamoClient;

beforeAll(async () => {
  embedded = openEmbeddedStore(null);
  server = await startEmbeddedStore(null);
  direct = new DynamoClient({ region: 'local', transport: embedded.transport });
  overHttp = new DynamoClient({ region: 'local', endpoint: server.endpoint });
  await ensureTable(direct, 'embedded-test');
  await ensureTable(overHttp, 'embedded-test');
});

afterAll(async () => {
  direct.destroy();
  overHttp.destroy();
  await embedded.close();
  await server.close();
});

const TableName = 'embedded-test';
const key = (sk: string) => ({ pk: { S: 'P' }, sk: { S: sk } });

/** A call's answer or its error, in a form two stores' answers can be compared by. */
async function outcome(client: DynamoClient, operation: string, input: object): Promise<unknown> {
  try {
    const answer = await client.send<{ Responses?: Record<string, unknown[]> }>(operation, input);
    // A batch read answers in no set order (as DynamoDB): compared sorted.
    for (const items of Object.values(answer.Responses ?? {})) items.sort((a, b) => JSON.stringify(a).localeCompare(JSON.stringify(b)));
    return { answer };
  } catch (error) {
    if (!(error instanceof StoreError)) throw error;
    return { error: error.name, message: error.message, status: error.status };
  }
}

/** Calls that cover reads, writes, conditions, updates, projections, filters and errors. */
const CALLS: Array<[string, object]> = [
  ['PutItem', { TableName, Item: { ...key('a'), n: { N: '1' }, tags: { SS: ['x'] }, doc: { M: { deep: { L: [{ S: 'y' }] } } } } }],
  ['PutItem', { TableName, Item: key('a'), ConditionExpression: 'attribute_not_exists(#pk)', ExpressionAttributeNames: { '#pk': 'pk' } }],
  ['PutItem', { TableName, Item: { ...key('b'), n: { N: '5' } } }],
  [
    'UpdateItem',
    {
      TableName,
      Key: key('a'),
      UpdateExpression: 'SET #d.#deep = list_append(#d.#deep, :more), #s = if_not_exists(#s, :s) ADD #n :one REMOVE #gone',
      ExpressionAttributeNames: { '#d': 'doc', '#deep': 'deep', '#s': 'status', '#n': 'n', '#gone': 'gone' },
      ExpressionAttributeValues: { ':more': { L: [{ S: 'z' }] }, ':s': { S: 'open' }, ':one': { N: '1' } },
      ReturnValues: 'ALL_NEW',
    },
  ],
  [
    'UpdateItem',
    {
      TableName,
      Key: key('a'),
      UpdateExpression: 'ADD #n :bad',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':bad': { S: 'x' } },
    },
  ],
  [
    'UpdateItem',
    {
      TableName,
      Key: key('a'),
      UpdateExpression: 'SET #n = :v',
      ExpressionAttributeNames: { '#n': 'n' },
      ExpressionAttributeValues: { ':v': { N: '2' }, ':unused': { N: '3' } },
    },
  ],
  [
    'GetItem',
    {
      TableName,
      Key: key('a'),
      ProjectionExpression: '#n, #d.#deep[1]',
      ExpressionAttributeNames: { '#n': 'n', '#d': 'doc', '#deep': 'deep' },
    },
  ],
  [
    'Query',
    {
      TableName,
      KeyConditionExpression: '#pk = :pk AND begins_with(#sk, :prefix)',
      FilterExpression: '#n BETWEEN :low AND :high',
      ExpressionAttributeNames: { '#pk': 'pk', '#sk': 'sk', '#n': 'n' },
      ExpressionAttributeValues: { ':pk': { S: 'P' }, ':prefix': { S: '' }, ':low': { N: '0' }, ':high': { N: '4' } },
    },
  ],
  [
    'Query',
    {
      TableName,
      KeyConditionExpression: '#pk = :pk',
      ExpressionAttributeNames: { '#pk': 'pk' },
      ExpressionAttributeValues: { ':pk': { S: 'P' } },
      Limit: 1,
    },
  ],
  ['BatchWriteItem', { RequestItems: { [TableName]: [{ PutRequest: { Item: key('c') } }, { DeleteRequest: { Key: key('b') } }] } }],
  ['BatchGetItem', { RequestItems: { [TableName]: { Keys: [key('a'), key('b'), key('c')] } } }],
  ['DeleteItem', { TableName, Key: key('c'), ReturnValues: 'ALL_OLD' }],
  ['GetItem', { TableName: 'no-such-table', Key: key('a') }],
  ['GetItem', { TableName, Key: { pk: { S: 'P' } } }],
  ['GetItem', { TableName, Key: 'not a map' }],
  ['Scan', { TableName }],
  ['NoSuchOperation', { TableName }],
];

describe('the embedded store', () => {
  it('answers every call as dynalite over HTTP does, errors included', async () => {
    const errors = new Set<string>();
    for (const [operation, input] of CALLS) {
      const inProcess = (await outcome(direct, operation, structuredClone(input))) as { error?: string };
      const http = await outcome(overHttp, operation, structuredClone(input));
      expect({ operation, ...inProcess }).toEqual({ operation, ...(http as object) });
      if (inProcess.error) errors.add(inProcess.error);
    }
    // The calls above met each kind of answer at least once.
    expect([...errors].sort()).toEqual(
      [
        'ConditionalCheckFailedException',
        'ResourceNotFoundException',
        'SerializationException',
        'UnknownOperationException',
        'ValidationException',
      ].sort(),
    );
  });

  it('counts a name as used by a condition even when the same request’s update used it first', async () => {
    const names = { '#s': 'status' };
    const values = { ':v': { S: 'new' }, ':old': { S: 'old' } };
    await direct.send('PutItem', { TableName, Item: { ...key('shared'), status: { S: 'old' } } });
    // The update uses #s before the condition does; then a request whose update does not use it.
    const first = {
      TableName,
      Key: key('shared'),
      UpdateExpression: 'SET #s = :v',
      ConditionExpression: '#s = :old',
      ExpressionAttributeNames: names,
      ExpressionAttributeValues: values,
    };
    await direct.send('UpdateItem', first);
    await direct.send('PutItem', { TableName, Item: { ...key('shared'), status: { S: 'old' } } });
    const second = { ...first, UpdateExpression: 'SET label_text = :v' };
    expect(await direct.send('UpdateItem', { ...second, ReturnValues: 'ALL_NEW' })).toMatchObject({
      Attributes: { label_text: { S: 'new' } },
    });
  });

  it('keeps nothing it was given or answered: changing either afterwards changes nothing stored', async () => {
    const item = { ...key('kept'), doc: { M: { list: { L: [{ S: 'first' }] } } }, n: { N: '1' } };
    await direct.send('PutItem', { TableName, Item: item });
    item.doc.M.list.L.push({ S: 'added later' });
    item.n.N = '2';
    const read = await direct.send<{ Item: { doc: { M: { list: { L: unknown[] } } }; n: { N: string } } }>('GetItem', {
      TableName,
      Key: key('kept'),
    });
    expect(read.Item).toEqual({ ...key('kept'), doc: { M: { list: { L: [{ S: 'first' }] } } }, n: { N: '1' } });
    read.Item.doc.M.list.L.length = 0;
    read.Item.n.N = '3';
    expect((await direct.send<{ Item: unknown }>('GetItem', { TableName, Key: key('kept') })).Item).toEqual({
      ...key('kept'),
      doc: { M: { list: { L: [{ S: 'first' }] } } },
      n: { N: '1' },
    });
  });

  it('keeps what it was given: data written in the store is read back after the store is reopened', async () => {
    const { mkdtemp, rm } = await import('node:fs/promises');
    const { tmpdir } = await import('node:os');
    const { join } = await import('node:path');
    const dir = await mkdtemp(join(tmpdir(), 'embedded-store-'));
    try {
      const first = openEmbeddedStore(dir);
      const writer = new DynamoClient({ region: 'local', transport: first.transport });
      await ensureTable(writer, TableName);
      await writer.send('PutItem', { TableName, Item: { ...key('kept'), n: { N: '7' } } });
      await first.close();
      const second = openEmbeddedStore(dir);
      const reader = new DynamoClient({ region: 'local', transport: second.transport });
      // The first read may come before leveldb has opened (dynalite's own path), the next after (read inline).
      for (let read = 0; read < 2; read += 1) {
        expect(await reader.send('GetItem', { TableName, Key: key('kept') })).toMatchObject({ Item: { n: { N: '7' } } });
      }
      expect(await reader.send('GetItem', { TableName, Key: key('never written') })).toEqual({});
      await second.close();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

/** A parser as dynalite ships it, loaded afresh (not the memoized one). */
function freshParser(name: string): { parse(input: string, options: object): unknown } {
  const path = require.resolve(`dynalite/db/${name}.js`);
  const kept = require.cache[path];
  delete require.cache[path];
  try {
    return require(path);
  } finally {
    if (kept) require.cache[path] = kept;
  }
}

function contextOf(names: Record<string, string>, values: Record<string, Record<string, unknown>>, isKeyCondition = false) {
  return {
    attrNames: names,
    attrVals: values,
    unusedAttrNames: Object.fromEntries(Object.keys(names).map((name) => [name, true])),
    unusedAttrVals: Object.fromEntries(Object.keys(values).map((name) => [name, true])),
    isKeyCondition,
    isReserved: () => false,
    compare: () => false,
  };
}

describe('the memo of parsed expressions', () => {
  memoizeDynaliteParsers();
  const memo = {
    updateParser: require('dynalite/db/updateParser.js') as { parse(input: string, options: object): unknown },
    conditionParser: require('dynalite/db/conditionParser.js') as { parse(input: string, options: object): unknown },
  };

  const update = 'SET #a = :a, #b.#c[2] = list_append(:l, #b.#c) ADD #n :n REMOVE #gone';
  const names = { '#a': 'a', '#b': 'b', '#c': 'c', '#n': 'n', '#gone': 'gone' };
  const valuesOf = (tag: string) => ({ ':a': { S: tag }, ':l': { L: [{ S: tag }] }, ':n': { N: '1' } });

  it('answers what a fresh parse answers, with this call’s values, and marks the same names used', () => {
    const fresh = freshParser('updateParser');
    for (const tag of ['first', 'second', 'third']) {
      const memoContext = contextOf(names, valuesOf(tag));
      const freshContext = contextOf(names, valuesOf(tag));
      const kept = memo.updateParser.parse(update, { context: memoContext }) as { sections: Array<{ val?: unknown }> };
      expect(kept).toEqual(fresh.parse(update, { context: freshContext }));
      // The values in the tree are this call's own objects, not copies of the first call's.
      expect(kept.sections[0]?.val).toBe(memoContext.attrVals[':a']);
      expect(memoContext.unusedAttrNames).toEqual(freshContext.unusedAttrNames);
      expect(memoContext.unusedAttrVals).toEqual({});
    }
  });

  it('hands out a copy: changing one answer changes no later one, and maps without a prototype keep none', () => {
    const first = memo.updateParser.parse(update, { context: contextOf(names, valuesOf('x')) }) as Record<string, any>;
    first.sections.length = 0;
    first.paths.push(['changed']);
    const second = memo.updateParser.parse(update, { context: contextOf(names, valuesOf('y')) }) as Record<string, any>;
    expect(second.sections).toHaveLength(4);
    expect(second.paths).not.toContainEqual(['changed']);
    expect(Object.getPrototypeOf(second.nestedPaths)).toBeNull();
  });

  it('marks every name the expression uses, even one an earlier expression of the request used', () => {
    const fresh = freshParser('conditionParser');
    const condition = '#s = :old';
    const names = { '#s': 'status' };
    // First seen after the update expression used #s: it is no longer in the unused record.
    const afterUpdate = contextOf(names, { ':old': { S: 'a' } });
    delete afterUpdate.unusedAttrNames['#s'];
    memo.conditionParser.parse(condition, { context: afterUpdate });
    // Then in a request where nothing else used it: the kept parse must mark it.
    const memoContext = contextOf(names, { ':old': { S: 'b' } });
    const freshContext = contextOf(names, { ':old': { S: 'b' } });
    memo.conditionParser.parse(condition, { context: memoContext });
    fresh.parse(condition, { context: freshContext });
    expect(memoContext.unusedAttrNames).toEqual(freshContext.unusedAttrNames);
    expect(memoContext.unusedAttrNames).toEqual({});
  });

  it('keeps at most its bound of templates, the least recently used dropped first', () => {
    const fresh = freshParser('conditionParser');
    let parses = 0;
    const parse = memoized(
      {
        parse: (input, options) => {
          parses += 1;
          return fresh.parse(input, options);
        },
      },
      2,
    );
    const ask = (attribute: string) => parse('#a = :v', { context: contextOf({ '#a': attribute }, { ':v': { N: '1' } }) });
    for (const attribute of ['a', 'b', 'a', 'c', 'a']) ask(attribute);
    // a, b parsed; a kept; c parsed and b dropped (a was used since); a still kept.
    expect(parses).toBe(3);
    ask('b');
    expect(parses).toBe(4);
  });

  it('parses again when a value’s type changes, and refuses a missing name every time', () => {
    const condition = 'size(#a) > :v';
    const ok = memo.conditionParser.parse(condition, { context: contextOf({ '#a': 'a' }, { ':v': { N: '1' } }) });
    expect(typeof ok).toBe('object');
    // size() of a number is refused: the type is part of what the memo keys on.
    const sizeOfNumber = 'size(:v) > :w';
    expect(memo.conditionParser.parse(sizeOfNumber, { context: contextOf({}, { ':v': { S: 's' }, ':w': { N: '1' } }) })).toBeTypeOf(
      'object',
    );
    expect(memo.conditionParser.parse(sizeOfNumber, { context: contextOf({}, { ':v': { N: '1' }, ':w': { N: '1' } }) })).toMatch(
      /Incorrect operand type/,
    );
    // A name missing once is missing every time.
    for (let i = 0; i < 2; i += 1) {
      expect(memo.conditionParser.parse('#a = :v', { context: contextOf({}, { ':v': { N: '1' } }) })).toMatch(/attribute name/);
    }
  });

  it('parses BETWEEN and attribute_type every time, since they read the values themselves', () => {
    const compare = (name: string, x: { N: string }, y: { N: string }) => name === 'GT' && Number(x.N) > Number(y.N);
    const between = (low: string, high: string) =>
      memo.conditionParser.parse('#n BETWEEN :low AND :high', {
        context: { ...contextOf({ '#n': 'n' }, { ':low': { N: low }, ':high': { N: high } }), compare },
      });
    expect(between('1', '2')).toBeTypeOf('object');
    expect(between('3', '2')).toMatch(/upper bound to be greater than or equal to lower bound/);
    const typed = (type: string) =>
      memo.conditionParser.parse('attribute_type(#a, :t)', { context: contextOf({ '#a': 'a' }, { ':t': { S: type } }) });
    expect(typed('S')).toBeTypeOf('object');
    expect(typed('NOPE')).toMatch(/Invalid attribute type name/);
  });
});

describe('the embedded store on disk', () => {
  it('has in leveldb every write it has answered, even if the process is killed the moment after', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wap-killed-'));
    try {
      // In a process of its own (test/fixtures/store-killed.ts), killed with SIGKILL once its 30 writes are answered.
      const signal = await new Promise<string | null>((resolve) => {
        const child = execFile(process.execPath, ['--import', 'tsx', 'test/fixtures/store-killed.ts', dir, '30'], { timeout: 20_000 });
        child.once('exit', (_code, killedBy) => resolve(killedBy));
      });
      expect(signal).toBe('SIGKILL');
      const reopened = openEmbeddedStore(dir);
      const client = new DynamoClient({ region: 'local', transport: reopened.transport });
      try {
        const { Items } = await client.send<{ Items: unknown[] }>('Query', {
          TableName: 'killed',
          KeyConditionExpression: 'pk = :p',
          ExpressionAttributeValues: { ':p': { S: 'P' } },
        });
        expect(Items).toHaveLength(30);
      } finally {
        client.destroy();
        await reopened.close();
      }
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
