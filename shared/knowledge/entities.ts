import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import type { Key, QueryInput } from '../platform/table.js';
import { conditionOf, tableEntity, updateOf } from '../platform/updates.js';
import { workspacePartition } from '../workspaces/index.js';
import { keys } from '../platform/keys.js';

/*
 * A workspace's knowledge (docs/data-model.md): its entries, in the workspace's partition (the
 * query reads them with the workspace), and the gaps the statistics found (questions it could not
 * answer), in a partition of their own, newest first.
 */

const KNOWLEDGE_PREFIX = 'KNOW#';

/** A knowledge entry (`WS#<org>#<ws>` / `KNOW#<id>`). */
export const knowledgeKey = (orgId: string, workspaceId: string, knowledgeId: string): Key => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: `${KNOWLEDGE_PREFIX}${knowledgeId}`,
});

/** Whether an item of the workspace's partition is a knowledge entry. */
export const isKnowledgeItem = (item: { sk: string }) => item.sk.startsWith(KNOWLEDGE_PREFIX);

/** The attributes of a knowledge entry that its change writes (its creation is a put of the whole entry). */
const knowledgeEntity = tableEntity('knowledge', {
  title: string().optional(),
  content: string().optional(),
  updated_at: string(),
});

/** The condition that an entry is there (its change or delete is 404 otherwise). */
export const knowledgeExists = () => conditionOf(knowledgeEntity, { attr: 'pk', exists: true });

/** An entry's new title or content (what is given), if it is there. */
export function knowledgeUpdate(
  orgId: string,
  workspaceId: string,
  knowledgeId: string,
  changes: { title?: string; content?: string },
  at: string,
) {
  const command = knowledgeEntity
    .build(UpdateItemCommand)
    .item({ ...knowledgeKey(orgId, workspaceId, knowledgeId), title: changes.title, content: changes.content, updated_at: at })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** Every knowledge entry, in every workspace: a scan's filter (migration 011). */
export const everyKnowledgeEntry = () =>
  conditionOf(knowledgeEntity, {
    and: [
      { attr: 'pk', beginsWith: 'WS#' },
      { attr: 'sk', beginsWith: KNOWLEDGE_PREFIX },
    ],
  });

const gapsPartition = (orgId: string, workspaceId: string) => `WSGAP#${orgId}#${workspaceId}`;

/** A knowledge gap, listed newest first (written by the statistics job). */
export const gapKey = (orgId: string, workspaceId: string, at: string, gapId: string): Key => ({
  pk: gapsPartition(orgId, workspaceId),
  sk: keys.timeOrdered(at, gapId),
});

// --- Access patterns ---

/** A workspace's newest gaps. */
export const recentGaps = (orgId: string, workspaceId: string, limit: number): QueryInput => ({
  pk: gapsPartition(orgId, workspaceId),
  newestFirst: true,
  limit,
});
