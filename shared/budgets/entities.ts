import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { $add, $get, $remove, $set, $subtract, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { list } from 'dynamodb-toolbox/schema/list';
import { map } from 'dynamodb-toolbox/schema/map';
import { number } from 'dynamodb-toolbox/schema/number';
import { record } from 'dynamodb-toolbox/schema/record';
import { string } from 'dynamodb-toolbox/schema/string';
import { orgPartition } from '../org/index.js';
import type { Key, QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, tableEntity, updateOf } from '../platform/updates.js';
import { BUDGET_PERIODS, BUDGET_SCOPES, MAX_BUDGETS } from './schemas.js';

/*
 * Where budgets live (docs/data-model.md): their definitions in one item of the organisation, a map
 * by id read by every query with the model settings, and what each has spent in the current
 * period in an item of its own. Every write of them is here (budgets.ts, admission.ts).
 */

/** One budget's definition, an entry of the organisation's map. */
const budgetAttributes = map({
  id: string(),
  scope: string().enum(...BUDGET_SCOPES),
  scope_id: nullableString,
  name: string(),
  period: string().enum(...BUDGET_PERIODS),
  limit_usd: number(),
  alert_percent: list(number()),
  created_at: string(),
});

/** The organisation's budgets (`ORG#<org>` / `BUDGETS`): the definitions by id, and how many there are. */
const budgetsEntity = tableEntity('budgets', {
  budgets: record(string(), budgetAttributes).optional(),
  /** ADD; at most `MAX_BUDGETS`. */
  budget_count: number().optional(),
});

export const budgetsKey = (orgId: string): Key => ({ pk: orgPartition(orgId), sk: 'BUDGETS' });

/** A budget as its definition is stored. */
export interface StoredBudget {
  id: string;
  scope: (typeof BUDGET_SCOPES)[number];
  scope_id: string | null;
  name: string;
  period: (typeof BUDGET_PERIODS)[number];
  limit_usd: number;
  alert_percent: number[];
  created_at: string;
}

/**
 * Whether `id` may name a budget: ids are letters, digits and `_` (`bud_…`, platform/ids.ts), and
 * a path into the map (a condition's) takes no other, so any other names none.
 */
export const mayNameBudget = (id: string) => /^\w+$/.test(id);

/** The path of one budget in the map (escaped: the key is an id). */
const entry = (id: string) => `budgets['${id}']` as const;

/** The definitions' map, made where it is not there yet (an entry of it needs it). */
export const budgetsOpened = (orgId: string) =>
  updateOf(budgetsEntity.build(UpdateItemCommand).item({ ...budgetsKey(orgId), budgets: $get('budgets', {}) }));

/** A new budget, counted, while the organisation has fewer than `MAX_BUDGETS`. */
export function budgetAdded(orgId: string, budget: StoredBudget) {
  const command = budgetsEntity
    .build(UpdateItemCommand)
    .item({ ...budgetsKey(orgId), budgets: { [budget.id]: $set(budget) }, budget_count: $add(1) })
    .options({
      condition: {
        or: [
          { attr: 'budget_count', exists: false },
          { attr: 'budget_count', lt: MAX_BUDGETS },
        ],
      },
    });
  return updateOf(command);
}

/** A budget's new definition, if it exists. */
export function budgetChanged(orgId: string, budget: StoredBudget) {
  const command = budgetsEntity
    .build(UpdateItemCommand)
    .item({ ...budgetsKey(orgId), budgets: { [budget.id]: $set(budget) } })
    .options({ condition: { attr: entry(budget.id), exists: true } });
  return updateOf(command);
}

/** A budget removed, and uncounted, if it exists. */
export function budgetRemoved(orgId: string, id: string) {
  const command = budgetsEntity
    .build(UpdateItemCommand)
    .item({ ...budgetsKey(orgId), budgets: { [id]: $remove() }, budget_count: $add(-1) })
    .options({ condition: { attr: entry(id), exists: true } });
  return updateOf(command);
}

/**
 * A budget's spend in one period (`BUDGETSPEND#<budget>` / `<YYYY-MM-DD>` or `<YYYY-MM>`): `room`
 * (limit − spent − reserved, what a reservation takes from by one conditional write), `spent`,
 * `reserved`, and when a query was last refused for want of room; kept a month past its period.
 */
const spendEntity = tableEntity('budget-spend', {
  room: number().optional(),
  spent: number().optional(),
  reserved: number().optional(),
  refused_at: string().optional(),
  ttl: number().optional(),
});

/** What a budget has spent and holds in one period. */
export type SpendItem = FormattedItem<typeof spendEntity>;

export const budgetSpendKey = (budgetId: string, period: string): Key => ({ pk: `BUDGETSPEND#${budgetId}`, sk: period });

/** A new limit moves the period's room by `delta`, if the period has an item; the mark of a refused query goes with the old limit. */
export function roomMovedUpdate(key: Key, delta: number) {
  const command = spendEntity
    .build(UpdateItemCommand)
    .item({ ...key, room: $add(delta), refused_at: $remove() })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** `amount` reserved, taken from the room (the whole `limit` in a new period), only if the room holds it. */
export function reservationUpdate(key: Key, limit: number, amount: number, ttl: number) {
  const command = spendEntity
    .build(UpdateItemCommand)
    .item({ ...key, room: $subtract($get('room', limit), amount), ttl, reserved: $add(amount) })
    .options({
      condition: {
        or: [
          { attr: 'room', exists: false },
          { attr: 'room', gte: amount },
        ],
      },
    });
  return updateOf(command);
}

/** A reservation settled: `back` returned to the room, `reserved` released, `spent` counted. */
export const settlementUpdate = (key: Key, back: number, reserved: number, spent: number) =>
  updateOf(spendEntity.build(UpdateItemCommand).item({ ...key, room: $add(back), reserved: $add(-reserved), spent: $add(spent) }));

/** The period marked as refusing a query at `at` (its item kept until `ttl` if it is new). */
export const refusedUpdate = (key: Key, at: string, ttl: number) =>
  updateOf(spendEntity.build(UpdateItemCommand).item({ ...key, refused_at: at, ttl: $get('ttl', ttl) }));

/** The audit entry (a workspace's log) as a budget made mid-period reads it: who spent (spent-before.ts). */
const spenderEntity = tableEntity('audit-spender', {
  user_id: nullableString.optional(),
  consumer_id: nullableString.optional(),
});

/** The filter of a Query of the audit log to the entries of one user or consumer. */
export function spentBy(who: { attribute: 'user_id' | 'consumer_id'; id: string }): Pick<QueryInput, 'filter' | 'names' | 'values'> {
  const { condition, names, values } = conditionOf(spenderEntity, { attr: who.attribute, eq: who.id });
  return { filter: condition, names, values };
}
