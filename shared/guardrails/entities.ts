import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key, QueryInput } from '../platform/table.js';
import { conditionOf, tableEntity, updateOf } from '../platform/updates.js';
import { workspacePartition } from '../workspaces/index.js';
import { keys } from '../platform/keys.js';

/*
 * A workspace's guardrails (docs/data-model.md): their definitions, in the workspace's partition
 * (the query reads them with the workspace), and the violations they caught, in a partition of
 * their own, newest first. What their patterns may cost is counted on the workspace item
 * (`patternStepsUpdate`, workspaces/entities.ts).
 */

const GUARDRAIL_PREFIX = 'GUARD#';

/** A guardrail (`WS#<org>#<ws>` / `GUARD#<id>`). */
export const guardrailKey = (orgId: string, workspaceId: string, guardrailId: string): Key => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: `${GUARDRAIL_PREFIX}${guardrailId}`,
});

/** Whether an item of the workspace's partition is a guardrail. */
export const isGuardrailItem = (item: { sk: string }) => item.sk.startsWith(GUARDRAIL_PREFIX);

/** The attributes of a guardrail that its writes test (a change is a put of the whole guardrail). */
const guardrailEntity = tableEntity('guardrail', { pattern: string() });

/** The condition that a guardrail is there (its change or delete is 404 otherwise). */
export const guardrailExists = () => conditionOf(guardrailEntity, { attr: 'pk', exists: true });

/** A guardrail's pattern replaced, on condition it is still `from` (migrations/004: a preset's pattern of before). */
export const guardrailPatternUpdate = (key: Key, from: string, to: string) =>
  updateOf(
    guardrailEntity
      .build(UpdateItemCommand)
      .item({ ...key, pattern: to })
      .options({ condition: { attr: 'pattern', eq: from } }),
  );

const violationsPartition = (orgId: string, workspaceId: string) => `WSVIOL#${orgId}#${workspaceId}`;

/** A guardrail violation, listed newest first (written with the query's other items). */
export const violationKey = (orgId: string, workspaceId: string, at: string, violationId: string): Key => ({
  pk: violationsPartition(orgId, workspaceId),
  sk: keys.timeOrdered(at, violationId),
});

// --- Access patterns ---

/** A workspace's violations, newest first (read page by page). */
export const violationsOf = (orgId: string, workspaceId: string): QueryInput => ({
  pk: violationsPartition(orgId, workspaceId),
  newestFirst: true,
});
