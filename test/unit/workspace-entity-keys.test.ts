import { describe, expect, it } from 'vitest';
import {
  connectionById,
  connectionKey,
  connectionLookup,
  connectionNameKey,
  connectionsOfWorkspace,
  grantsOfConnection,
  isConnectionItem,
  isToolItem,
  oauthClientKey,
  oauthStateKey,
  oauthTokensKey,
  toolKey,
  toolsOfConnection,
} from '../../shared/connections/entities.js';
import { consumerKey } from '../../shared/consumers/entities.js';
import { guardrailKey, isGuardrailItem, violationKey, violationsOf } from '../../shared/guardrails/entities.js';
import { gapKey, isKnowledgeItem, knowledgeKey, recentGaps } from '../../shared/knowledge/entities.js';
import type { QueryInput } from '../../shared/platform/table.js';
import {
  activityEntryKey,
  activityShards,
  cacheWarningKey,
  isWorkspaceItem,
  workspaceKey,
  workspaceListing,
  workspacesOfOrganisation,
  workspaceWithChildren,
} from '../../shared/workspaces/entities.js';
import {
  counterKey,
  counterShardsOf,
  dayOfUsage,
  dayUsageBetween,
  dayUsageKey,
  dayUsageKeys,
  isCounterItem,
  monthCounterKeys,
} from '../../shared/workspaces/usage-entities.js';
import { queryTakes as takes } from '../support/queries.js';

/**
 * The stored key layout of `docs/data-model.md` of a workspace's items, spelled out: a builder
 * that changes a byte here would orphan stored items, so this test must change with the docs
 * (and with a migration of what is stored).
 */
describe("a workspace's entity keys", () => {
  it('build the workspace, its children and its partitions byte for byte', () => {
    expect(workspaceKey('o1', 'ws-a')).toEqual({ pk: 'WS#o1#ws-a', sk: 'META' });
    expect(workspaceListing('o1', '2024-01-01T00:00:00.000Z', 'ws-a')).toEqual({
      gsi1pk: 'ORG#o1#WS',
      gsi1sk: '2024-01-01T00:00:00.000Z#ws-a',
    });
    expect(workspacesOfOrganisation('o1')).toEqual({ index: 'listings', pk: 'ORG#o1#WS' });
    expect(connectionKey('o1', 'ws-a', 'c1')).toEqual({ pk: 'WS#o1#ws-a', sk: 'CONN#c1' });
    expect(connectionNameKey('o1', 'ws-a', ' Docs ')).toEqual({ pk: 'WS#o1#ws-a', sk: 'CONNNAME#docs' });
    expect(connectionLookup('c1')).toEqual({ gsi2pk: 'CONNID#c1', gsi2sk: 'CONN' });
    expect(connectionById('c1')).toEqual({ index: 'lookups', pk: 'CONNID#c1', limit: 1 });
    expect(toolKey('o1', 'ws-a', 'c1', 'search')).toEqual({ pk: 'WS#o1#ws-a', sk: 'TOOL#c1#search' });
    expect(knowledgeKey('o1', 'ws-a', 'k1')).toEqual({ pk: 'WS#o1#ws-a', sk: 'KNOW#k1' });
    expect(guardrailKey('o1', 'ws-a', 'g1')).toEqual({ pk: 'WS#o1#ws-a', sk: 'GUARD#g1' });
    expect(oauthClientKey('c1')).toEqual({ pk: 'OAUTH#c1', sk: 'CLIENT' });
    expect(oauthTokensKey('c1', 'user:u1')).toEqual({ pk: 'OAUTH#c1', sk: 'TOKENS#user:u1' });
    expect(oauthStateKey('s1')).toEqual({ pk: 'OAUTHSTATE#s1', sk: 'STATE' });
    expect(activityEntryKey('o1', 'ws-a', 'T', 'a1')).toEqual({ pk: 'WSACT#o1#ws-a', sk: 'T#a1' });
    expect(activityEntryKey('o1', 'ws-a', 'T', 'a1', 2)).toEqual({ pk: 'WSACT#o1#ws-a#2', sk: 'T#a1' });
    expect(activityShards('o1', 'ws-a')).toEqual(['WSACT#o1#ws-a', 'WSACT#o1#ws-a#1', 'WSACT#o1#ws-a#2', 'WSACT#o1#ws-a#3']);
    expect(cacheWarningKey('o1', 'ws-a', '2024-01-01')).toEqual({ pk: 'WSSTAT#o1#ws-a', sk: 'WARN#2024-01-01' });
    expect(gapKey('o1', 'ws-a', 'T', 'g1')).toEqual({ pk: 'WSGAP#o1#ws-a', sk: 'T#g1' });
    expect(violationKey('o1', 'ws-a', 'T', 'v1')).toEqual({ pk: 'WSVIOL#o1#ws-a', sk: 'T#v1' });
  });

  it('build the counter and day usage items byte for byte', () => {
    expect(counterKey('o1', 'ws-a', 3, '2024-01')).toEqual({ pk: 'WSCOUNT#o1#ws-a#3', sk: 'M#2024-01' });
    expect(monthCounterKeys('o1', 'ws-a', '2024-01').map((key) => key.pk)).toEqual([0, 1, 2, 3].map((shard) => `WSCOUNT#o1#ws-a#${shard}`));
    expect(counterShardsOf('o1', 'ws-a')).toEqual([0, 1, 2, 3].map((shard) => ({ pk: `WSCOUNT#o1#ws-a#${shard}` })));
    expect(isCounterItem(counterKey('o', 'w', 0, '2024-01'))).toBe(true);
    expect(dayUsageKey('o1', 2, '2024-01-01', 'ws-a')).toEqual({ pk: 'ORGTODAY#o1#2', sk: 'USE#2024-01-01#WS#ws-a' });
    expect(dayUsageKeys('o1', 'ws-a', ['2024-01-01'])).toEqual([0, 1, 2, 3].map((shard) => dayUsageKey('o1', shard, '2024-01-01', 'ws-a')));
    expect(dayOfUsage(dayUsageKey('o', 1, '2024-01-31', 'w'))).toBe('2024-01-31');
    expect(dayOfUsage(counterKey('o', 'w', 0, '2024-01'))).toBeUndefined();
  });

  it('read in each Query the items of its pattern, and only them', () => {
    const partition = [
      workspaceKey('o', 'w'),
      connectionKey('o', 'w', 'c'),
      connectionNameKey('o', 'w', 'c'),
      toolKey('o', 'w', 'c', 't'),
      toolKey('o', 'w', 'c2', 't'),
      knowledgeKey('o', 'w', 'k'),
      guardrailKey('o', 'w', 'g'),
      consumerKey('o', 'w', 'c'),
    ];
    const read = (query: QueryInput) => partition.filter((key) => takes(query, key));
    expect(read(workspaceWithChildren('o', 'w'))).toEqual(partition);
    expect(read(connectionsOfWorkspace('o', 'w'))).toEqual([connectionKey('o', 'w', 'c')]);
    expect(read(toolsOfConnection('o', 'w', 'c'))).toEqual([toolKey('o', 'w', 'c', 't')]);
    expect(partition.filter(isWorkspaceItem)).toEqual([workspaceKey('o', 'w')]);
    expect(partition.filter(isConnectionItem)).toEqual([connectionKey('o', 'w', 'c')]);
    expect(partition.filter(isToolItem)).toHaveLength(2);
    expect(partition.filter(isKnowledgeItem)).toEqual([knowledgeKey('o', 'w', 'k')]);
    expect(partition.filter(isGuardrailItem)).toEqual([guardrailKey('o', 'w', 'g')]);
    expect(takes(grantsOfConnection('c'), oauthTokensKey('c', 'workspace'))).toBe(true);
    expect(takes(grantsOfConnection('c'), oauthClientKey('c'))).toBe(true);
    expect(takes(recentGaps('o', 'w', 5), gapKey('o', 'w', 'T', 'g'))).toBe(true);
    expect(takes(violationsOf('o', 'w'), violationKey('o', 'w', 'T', 'v'))).toBe(true);
    // A day's items of every workspace, and no other day's.
    const days = [dayUsageKey('o', 0, '2024-01-01', 'w'), dayUsageKey('o', 0, '2024-01-02', 'w'), dayUsageKey('o', 0, '2024-01-03', 'w')];
    expect(days.filter((key) => takes(dayUsageBetween('o', 0, '2024-01-01', '2024-01-02'), key))).toEqual(days.slice(0, 2));
  });
});
