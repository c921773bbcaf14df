import { describe, expect, it } from 'vitest';
import { keys } from '../../shared/platform/keys.js';

/**
 * The stored key layout of `docs/data-model.md`, spelled out: a builder that changes a byte here
 * would orphan stored items (there is no migration), so this test must change with the docs.
 */
describe('table keys', () => {
  it('build the items of docs/data-model.md byte for byte', () => {
    expect(keys.user('o1', 'u1')).toEqual({ pk: 'ORG#o1', sk: 'USER#u1' });
    expect(keys.teamName('o1', ' Support ')).toEqual({ pk: 'ORG#o1', sk: 'TEAMNAME#support' });
    expect(keys.setting('o1', 'ai_provider')).toEqual({ pk: 'ORG#o1', sk: 'SETTING#ai_provider' });
    expect(keys.chatOrganisationEntry('o1')).toEqual({ gsi1pk: 'CHATORGS', gsi1sk: 'o1' });
    expect(keys.workspace('o1', 'ws-a')).toEqual({ pk: 'WS#o1#ws-a', sk: 'META' });
    expect(keys.workspacesIndexEntry('o1', '2024-01-01T00:00:00.000Z', 'ws-a')).toEqual({
      gsi1pk: 'ORG#o1#WS',
      gsi1sk: '2024-01-01T00:00:00.000Z#ws-a',
    });
    expect(keys.connection('o1', 'ws-a', 'c1')).toEqual({ pk: 'WS#o1#ws-a', sk: 'CONN#c1' });
    expect(keys.connectionName('o1', 'ws-a', ' Docs ')).toEqual({ pk: 'WS#o1#ws-a', sk: 'CONNNAME#docs' });
    expect(keys.connectionIdEntry('c1')).toEqual({ gsi2pk: 'CONNID#c1', gsi2sk: 'CONN' });
    expect(keys.tool('o1', 'ws-a', 'c1', 'search')).toEqual({ pk: 'WS#o1#ws-a', sk: 'TOOL#c1#search' });
    expect(keys.knowledge('o1', 'ws-a', 'k1')).toEqual({ pk: 'WS#o1#ws-a', sk: 'KNOW#k1' });
    expect(keys.guardrail('o1', 'ws-a', 'g1')).toEqual({ pk: 'WS#o1#ws-a', sk: 'GUARD#g1' });
    expect(keys.consumer('o1', 'ws-a', 'tc-ws-a')).toEqual({ pk: 'WS#o1#ws-a', sk: 'CONSUMER#tc-ws-a' });
    expect(keys.consumerIdEntry('x1')).toEqual({ gsi2pk: 'CONSUMERID#x1', gsi2sk: 'CONSUMER' });
    expect(keys.apiKey('abc')).toEqual({ pk: 'APIKEY#abc', sk: 'KEY' });
    expect(keys.channelBinding('o1', 'C1')).toEqual({ pk: 'CHANNEL#o1#C1', sk: 'CHANNEL' });
    expect(keys.workspaceChannelsEntry('o1', 'ws-a', 'C1')).toEqual({ gsi1pk: 'WSCHANNELS#o1#ws-a', gsi1sk: 'C1' });
    expect(keys.chatEventSeen('o1', 'Ev1')).toEqual({ pk: 'CHATEVENT#o1#Ev1', sk: 'SEEN' });
    expect(keys.chatMessageSeen('o1', 'C1', '17.5')).toEqual({ pk: 'CHATMSG#o1#C1#17.5', sk: 'SEEN' });
    expect(keys.chatLink('o1', 'T1', 'U1')).toEqual({ pk: 'ORG#o1', sk: 'CHATLINK#T1#U1' });
    expect(keys.chatLinkRequest('abc')).toEqual({ pk: 'CHATLINKREQ#abc', sk: 'REQUEST' });
    expect(keys.invitation('abc')).toEqual({ pk: 'INVITE#abc', sk: 'INVITATION' });
    expect(keys.invitationsIndexEntry('o1', 'T', 'i1')).toEqual({ gsi1pk: 'ORG#o1#INVITES', gsi1sk: 'T#i1' });
    expect(keys.workspaceDayStats('o1', 'ws-a', '2024-01-01')).toEqual({ pk: 'WSSTAT#o1#ws-a', sk: 'DAY#2024-01-01' });
    expect(keys.activityEntry('o1', 'ws-a', 'T', 'a1')).toEqual({ pk: 'WSACT#o1#ws-a', sk: 'T#a1' });
    expect(keys.gap('o1', 'ws-a', 'T', 'g1')).toEqual({ pk: 'WSGAP#o1#ws-a', sk: 'T#g1' });
    expect(keys.violation('o1', 'ws-a', 'T', 'v1')).toEqual({ pk: 'WSVIOL#o1#ws-a', sk: 'T#v1' });
    expect(keys.conversation('o1', 'ws-a', 'c1')).toEqual({ pk: 'CONV#o1#ws-a#c1', sk: 'STATE' });
    expect(keys.message('o1', 'ws-a', 'c1', 7)).toEqual({ pk: 'CONV#o1#ws-a#c1', sk: 'MSG#000007' });
    expect(keys.feedback('o1', 'ws-a', 'c1', 7, 'user:u1')).toEqual({ pk: 'FEEDBACK#o1#ws-a#c1', sk: 'MSG#000007#user:u1' });
    expect(keys.conversationsByStatusIndex('o1', 'ws-a', 'open')).toBe('WSCONV#o1#ws-a#open');
    expect(keys.dueIndex('cold', 3)).toBe('DUE#cold#3');
    expect(keys.dueIndexSortKey('T', 'o1', 'ws-a', 'c1')).toBe('T#o1#ws-a#c1');
    expect(keys.job('j1')).toEqual({ pk: 'JOB#j1', sk: 'JOB' });
    expect(keys.jobsByStateIndex('o1', 'lifecycle', 'failed')).toBe('JOBS#o1#lifecycle#failed');
    expect(keys.pendingJobsIndex('lifecycle', 31)).toBe('JOBPENDING#lifecycle#31');
    expect(keys.unshardedPendingJobsIndex('lifecycle')).toBe('JOBPENDING#lifecycle');
    expect(keys.queueCounters('o1', 7)).toEqual({ pk: 'QSTAT#o1#7', sk: 'QUEUES' });
    expect(keys.unshardedQueueCounters('o1')).toEqual({ pk: 'QSTAT#o1', sk: 'QUEUES' });
    expect(keys.timeOrdered('T', 'x')).toBe('T#x');
  });

  it('have prefixes and head sort keys that match their builders, and only them', () => {
    expect(keys.user('o', 'u').sk.startsWith(keys.userPrefix)).toBe(true);
    expect(keys.team('o', 't').sk.startsWith(keys.teamPrefix)).toBe(true);
    expect(keys.teamName('o', 't').sk.startsWith(keys.teamPrefix)).toBe(false);
    expect(keys.setting('o', 's').sk.startsWith(keys.settingPrefix)).toBe(true);
    expect(keys.chatLink('o', 't', 'u').sk.startsWith(keys.chatLinkPrefix)).toBe(true);
    for (const other of [keys.user('o', 'u'), keys.team('o', 't'), keys.setting('o', 's')]) {
      expect(other.sk.startsWith(keys.chatLinkPrefix)).toBe(false);
    }
    expect(keys.workspace('o', 'w').sk).toBe(keys.workspaceSortKey);
    expect(keys.conversation('o', 'w', 'c').sk).toBe(keys.conversationSortKey);
    expect(keys.message('o', 'w', 'c', 1).sk.startsWith(keys.messagePrefix)).toBe(true);
    expect(keys.connection('o', 'w', 'c').sk.startsWith(keys.connectionPrefix)).toBe(true);
    expect(keys.connectionName('o', 'w', 'c').sk.startsWith(keys.connectionPrefix)).toBe(false);
    expect(keys.consumer('o', 'w', 'c').sk.startsWith(keys.connectionPrefix)).toBe(false);
    expect(keys.tool('o', 'w', 'c', 't').sk.startsWith(keys.toolPrefix)).toBe(true);
    expect(keys.tool('o', 'w', 'c', 't').sk.startsWith(keys.toolsOfConnectionPrefix('c'))).toBe(true);
    expect(keys.tool('o', 'w', 'c2', 't').sk.startsWith(keys.toolsOfConnectionPrefix('c'))).toBe(false);
    expect(keys.knowledge('o', 'w', 'k').sk.startsWith(keys.knowledgePrefix)).toBe(true);
    expect(keys.guardrail('o', 'w', 'g').sk.startsWith(keys.guardrailPrefix)).toBe(true);
    expect(keys.consumer('o', 'w', 'c').sk.startsWith(keys.consumerPrefix)).toBe(true);
    expect(keys.queriesToday('o', 2, '2024-01-01', 'w').sk.startsWith(keys.queriesTodayPrefix('2024-01-01'))).toBe(true);
    expect(keys.queriesToday('o', 2, '2024-01-01', 'w', 'DAY').sk.startsWith(keys.queriesTodayPrefix('2024-01-01', 'DAY'))).toBe(true);
    // A cache warning shares the partition of the day items of before, under its own prefix.
    expect(keys.cacheWarning('o', 'w', '2024-01-01').pk).toBe(keys.workspaceStatsPartition('o', 'w'));
    expect(keys.cacheWarning('o', 'w', '2024-01-01').sk).not.toBe(keys.workspaceDayStats('o', 'w', '2024-01-01').sk);
  });

  it('bound time-ordered sort keys after every entry of that time', () => {
    const at = '2024-01-01T00:00:00.000Z';
    expect(keys.timeOrdered(at, 'zzz') < keys.afterTime(at)).toBe(true);
    expect(keys.afterTime(at) < keys.timeOrdered('2024-01-01T00:00:00.001Z', 'a')).toBe(true);
  });
});
