import type { UpdateCommandInput } from '@aws-sdk/lib-dynamodb';
import type { Entity } from 'dynamodb-toolbox/entity';
import { EntityConditionParser, type Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { Table as ToolboxTable } from 'dynamodb-toolbox/table';
import { str } from './attributes.js';
import type { ConditionalWrite, Key, UpdateInput } from './table.js';

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
