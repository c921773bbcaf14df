import { describe, expect, it } from 'vitest';
import { type IndexShape, itemSize, type WireItem, writeUnits } from '../../bench/write-accounting.js';

const ALL: IndexShape[] = ['gsi1', 'gsi2'].map((name) => ({ name, keys: [`${name}pk`, `${name}sk`], projected: 'ALL' }));
const KEYS_ONLY: IndexShape[] = [{ name: 'gsi1', keys: ['gsi1pk', 'gsi1sk'], projected: [] }];

const item = (extra: WireItem = {}): WireItem => ({ pk: { S: 'WS#o#w' }, sk: { S: 'META' }, ...extra });
const inGsi1 = (pk: string, extra: WireItem = {}) => item({ gsi1pk: { S: pk }, gsi1sk: { S: '2024#w' }, ...extra });

describe('itemSize', () => {
  it.each<[string, WireItem, number]>([
    ['a string: name and UTF-8 bytes', { ab: { S: 'héllo' } }, 2 + 6],
    ['a number: a byte per two significant digits, plus one', { n: { N: '12345' } }, 1 + 4],
    ['a number: zeroes trimmed', { n: { N: '-0.00120' } }, 1 + 2],
    ['binary: its bytes', { b: { B: Buffer.from('abcd').toString('base64') } }, 1 + 4],
    ['booleans and null: one byte', { t: { BOOL: true }, z: { NULL: true } }, 2 + 2],
    ['a map: 3 bytes, its entries, a byte each', { m: { M: { a: { S: 'xy' }, b: { N: '1' } } } }, 1 + 3 + (1 + 2 + 1) + (1 + 2 + 1)],
    ['a list: 3 bytes, its elements, a byte each', { l: { L: [{ S: 'abc' }, { BOOL: false }] } }, 1 + 3 + (3 + 1) + (1 + 1)],
  ])('%s', (_, value, size) => {
    expect(itemSize(value)).toBe(size);
  });

  it('counts nothing for no item', () => {
    expect(itemSize(undefined)).toBe(0);
  });
});

describe('writeUnits', () => {
  it('a new item with gsi1 keys: the base item and one index put', () => {
    expect(writeUnits(undefined, inGsi1('ORG#o#WS'), ALL)).toEqual([
      { target: 'table', kind: 'item', partition: 'table:WS#o#w', wcu: 1 },
      { target: 'gsi1', kind: 'put', partition: 'gsi1:ORG#o#WS', wcu: 1 },
    ]);
  });

  it('a non-key attribute changed: the base item and an index update (projection ALL), nothing with KEYS_ONLY', () => {
    const before = inGsi1('ORG#o#WS', { count: { N: '1' } });
    const after = inGsi1('ORG#o#WS', { count: { N: '2' } });
    expect(writeUnits(before, after, ALL).map((unit) => `${unit.target} ${unit.kind}`)).toEqual(['table item', 'gsi1 update']);
    expect(writeUnits(before, after, KEYS_ONLY).map((unit) => `${unit.target} ${unit.kind}`)).toEqual(['table item']);
  });

  it('an index key changed: a delete under the old key, a put under the new one', () => {
    const units = writeUnits(inGsi1('DUE#open#1'), inGsi1('DUE#open#2'), ALL);
    expect(units.map((unit) => `${unit.kind} ${unit.partition}`)).toEqual([
      'item table:WS#o#w',
      'delete gsi1:DUE#open#1',
      'put gsi1:DUE#open#2',
    ]);
  });

  it('an item deleted: the base item and its index entries deleted; unchanged: the base item only', () => {
    const both = inGsi1('A', { gsi2pk: { S: 'B' }, gsi2sk: { S: 'x' } });
    expect(writeUnits(both, undefined, ALL).map((unit) => `${unit.kind} ${unit.partition}`)).toEqual([
      'item table:WS#o#w',
      'delete gsi1:A',
      'delete gsi2:B',
    ]);
    expect(writeUnits(both, both, ALL)).toHaveLength(1);
  });

  it('bills the larger of the old and the new item by started KB, index entries with 100 bytes more', () => {
    const big = inGsi1('A', { text: { S: 'x'.repeat(1900) } });
    const small = inGsi1('A');
    const units = writeUnits(big, small, ALL);
    expect(units).toEqual([
      { target: 'table', kind: 'item', partition: 'table:WS#o#w', wcu: 2 },
      { target: 'gsi1', kind: 'update', partition: 'gsi1:A', wcu: 2 },
    ]);
    const edge = inGsi1('A', { text: { S: 'x'.repeat(1020 - itemSize(inGsi1('A')) - 4) } });
    expect(itemSize(edge)).toBe(1020);
    expect(writeUnits(undefined, edge, ALL).map((unit) => unit.wcu)).toEqual([1, 2]);
  });

  it('a write whose condition failed: the base item only, at the larger of the old and the attempted item', () => {
    const attempted = inGsi1('A', { text: { S: 'x'.repeat(1500) } });
    expect(writeUnits(undefined, undefined, ALL, false, attempted)).toEqual([
      { target: 'table', kind: 'item', partition: 'table:WS#o#w', wcu: 2 },
    ]);
  });
});
