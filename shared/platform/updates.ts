import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import { Entity } from 'dynamodb-toolbox/entity';
import { EntityConditionParser, type Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $remove } from 'dynamodb-toolbox/entity/actions/update';
import { item } from 'dynamodb-toolbox/schema/item';
import type { ItemAttributes } from 'dynamodb-toolbox/schema/item';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { string } from 'dynamodb-toolbox/schema/string';
import { Table as ToolboxTable } from 'dynamodb-toolbox/table';
import { str } from './attributes.js';
import {
  type ConditionalWrite,
  conditionHeld,
  type IndexName,
  indexAttributes,
  type Item,
  type Key,
  type Table,
  type UpdateInput,
} from './table.js';

/*
 * Typed writes: update and condition expressions are built by dynamodb-toolbox from an entity's
 * schema (attribute names and value types checked by the compiler), then sent through our own
 * `Table` (shared/platform/table.ts), so the injected clock, round-trip count, error mapping and
 * client stay the same. Toolbox only produces the parameters here; it never sends.
 */

/**
 * The single table as toolbox sees it: only the primary key matters to the builder. The name is
 * never sent: `Table` names the table itself when it sends the expressions.
 */
export const singleTable = new ToolboxTable({
  name: 'single-table',
  partitionKey: { name: 'pk', type: 'string' },
  sortKey: { name: 'sk', type: 'string' },
});

/**
 * Options of every entity of `singleTable`: no `_et` entity attribute and no `_ct`/`_md`
 * timestamps, so items keep exactly the attributes other code reads.
 */
export const plainItems = { entityAttribute: false, timestamps: false } as const;

/** A string attribute that may hold null (an API field that is null when unset, stored as it is). */
export const nullableString = anyOf(nul(), string());

/** The key of every item of `singleTable`: the attributes `pk` and `sk`. */
const keyAttributes = { pk: string().key(), sk: string().key() };

/**
 * An item type of `singleTable` (`plainItems`): its key, and `attributes` besides. (The mapped
 * parameter type lets each attribute's schema be inferred as `item()` infers it.)
 */
export function tableEntity<NAME extends string, ATTRIBUTES extends ItemAttributes>(
  name: NAME,
  attributes: { [KEY in keyof ATTRIBUTES]: ATTRIBUTES[KEY] },
) {
  return new Entity({ name, table: singleTable, ...plainItems, schema: item({ ...keyAttributes, ...attributes }) });
}

/** The key and expressions of a built UpdateItem, for `Table.update` / `Table.updateReturningOld`. */
export function updateOf(command: { params(): UpdateCommandInput }): { key: Key; input: UpdateInput } {
  const params = command.params();
  const key = { pk: str(params.Key?.pk), sk: str(params.Key?.sk) };
  if (!key.pk || !key.sk || !params.UpdateExpression) throw new Error('an update needs a key and at least one change');
  return {
    key,
    input: {
      update: params.UpdateExpression,
      condition: params.ConditionExpression,
      names: params.ExpressionAttributeNames,
      values: params.ExpressionAttributeValues,
    },
  };
}

/** A typed condition on an entity's attributes, as the expression `Table.put` / `Table.delete` take. */
export function conditionOf<ENTITY extends Entity>(entity: ENTITY, condition: Condition<ENTITY>): ConditionalWrite {
  const parsed = entity.build(EntityConditionParser).parse(condition);
  // An exists-only condition has no values, and the store refuses an empty ExpressionAttributeValues.
  const values = parsed.ExpressionAttributeValues;
  return {
    condition: parsed.ConditionExpression,
    names: parsed.ExpressionAttributeNames,
    ...(values && Object.keys(values).length ? { values } : {}),
  };
}

/** Any item of `singleTable`, by its key alone: what a create-if-absent write conditions on. */
const anyItem = tableEntity('any-item', {});
const ABSENT = conditionOf(anyItem, { attr: 'pk', exists: false });

/**
 * Puts `item` only if no item has its key yet; false when one exists. The claim of a unique name,
 * a first message under its number, a once-only marker: the item's key comes from its entity file.
 */
export function putNew(table: Table, item: Item | (Key & object)): Promise<boolean> {
  return conditionHeld(table.put(item, ABSENT));
}

/** A write's removal of an item's entry in `index`: both its keys there. */
export function outOf<I extends IndexName>(index: I) {
  const [pkName, skName] = indexAttributes(index);
  return { [pkName]: $remove(), [skName]: $remove() } as Record<ReturnType<typeof indexAttributes<I>>[number], ReturnType<typeof $remove>>;
}
