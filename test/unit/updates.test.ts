import { Entity } from 'dynamodb-toolbox/entity';
import { $add, $get, $remove, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { item } from 'dynamodb-toolbox/schema/item';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { describe, expect, it } from 'vitest';
import { conditionOf, plainItems, singleTable, updateOf } from '../../shared/platform/updates.js';

const thing = new Entity({
  name: 'thing',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    status: string().enum('open', 'closed'),
    label: anyOf(string(), nul()),
    count: number(),
    note: string().optional(),
  }),
});

const key = { pk: 'THING#1', sk: 'THING' };

/** Resolves `#name` and `:value` placeholders, so assertions read as the expression DynamoDB evaluates. */
function resolved(expression: string | undefined, names: Record<string, string> = {}, values: Record<string, unknown> = {}) {
  return (expression ?? '').replace(/#\w+/g, (token) => names[token] ?? token).replace(/:\w+/g, (token) => JSON.stringify(values[token]));
}

describe('typed updates (shared/platform/updates.ts)', () => {
  it('builds SET, if_not_exists, REMOVE and ADD from an entity schema, with the key apart', () => {
    const command = thing.build(UpdateItemCommand).item({
      ...key,
      status: 'open',
      label: $get('label', null),
      count: $add(2),
      note: $remove(),
    });
    const { key: built, input } = updateOf(command);
    expect(built).toEqual(key);
    expect(resolved(input.update, input.names, input.values)).toBe(
      'SET status = "open", label = if_not_exists(label, null) REMOVE note ADD count 2',
    );
    expect(input.condition).toBeUndefined();
  });

  it('writes no attribute of its own: no entity name, no timestamps', () => {
    const { input } = updateOf(thing.build(UpdateItemCommand).item({ ...key, count: $add(1) }));
    expect(Object.values(input.names ?? {}).sort()).toEqual(['count']);
  });

  it('puts a typed condition with the update, and alone for a put', () => {
    const { input } = updateOf(
      thing
        .build(UpdateItemCommand)
        .item({ ...key, count: $add(1) })
        .options({
          condition: {
            or: [
              { attr: 'pk', exists: false },
              { attr: 'status', ne: 'closed' },
            ],
          },
        }),
    );
    expect(resolved(input.condition, input.names, input.values)).toBe('(attribute_not_exists(pk)) OR (status <> "closed")');
    const write = conditionOf(thing, { attr: 'status', in: ['open', 'closed'] });
    expect(resolved(write.condition, write.names, write.values)).toBe('status IN ("open", "closed")');
  });

  it('refuses an update without changes', () => {
    expect(() => updateOf(thing.build(UpdateItemCommand).item({ ...key }))).toThrow(/at least one change/);
  });

  it('checks attribute names and value types at compile time', () => {
    const wrongType = () =>
      // @ts-expect-error: `count` is a number
      thing.build(UpdateItemCommand).item({ ...key, count: 'two' });
    const unknownAttribute = () =>
      // @ts-expect-error: no such attribute
      thing.build(UpdateItemCommand).item({ ...key, colour: 'red' });
    // The schema is checked when the params are built, too.
    expect(() => updateOf(wrongType())).toThrow();
    expect(unknownAttribute).toBeTypeOf('function');
  });
});
