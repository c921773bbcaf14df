import { describe, expect, it } from 'vitest';
import {
  CONVERSATION_SORT_KEY,
  closesEntry,
  closingConversations,
  conversationKey,
  conversationList,
  conversationNewestFirst,
  conversationsOfWorkspace,
  conversationWithMessages,
  feedbackKey,
  listingEntry,
  MESSAGE_PREFIX,
  messageKey,
  pendingConversations,
  pendingEntry,
} from '../../shared/conversations/entities.js';
import { listShardOf, shardKey } from '../../shared/platform/list-shards.js';

/**
 * The stored key layout of a conversation, its messages and ratings, and its index entries
 * (docs/data-model.md), spelled out: a builder that changes a byte here would orphan stored items,
 * so this test must change with the docs (and with a migration of what is stored).
 */
describe('conversation keys', () => {
  it('build the conversation, message and rating items byte for byte', () => {
    expect(conversationKey('o1', 'ws-a', 'c1')).toEqual({ pk: 'CONV#o1#ws-a#c1', sk: 'STATE' });
    expect(messageKey('o1', 'ws-a', 'c1', 7)).toEqual({ pk: 'CONV#o1#ws-a#c1', sk: 'MSG#000007' });
    expect(feedbackKey('o1', 'ws-a', 'c1', 7, 'user:u1')).toEqual({ pk: 'FEEDBACK#o1#ws-a#c1', sk: 'MSG#000007#user:u1' });
    expect(conversationList('o1', 'ws-a')).toBe('WSCONV#o1#ws-a');
  });

  it('build the index entries: listed by last activity in its shard, due in one of the due shards', () => {
    const at = '2024-01-01T00:00:00.000Z';
    expect(listingEntry('o1', 'ws-a', 'c1', at)).toEqual({ gsi1pk: shardKey('WSCONV#o1#ws-a', listShardOf('c1')), gsi1sk: at });
    const open = pendingEntry('open', 'ws-a', 'c1', new Date(at), 4);
    expect(open.gsi5pk).toMatch(/^DUE#open#[0-3]$/);
    expect(open.gsi5sk).toBe(at);
    expect(pendingEntry('stats', 'ws-a', 'c1', new Date(at), 4).gsi5pk).toBe(open.gsi5pk.replace('open', 'stats'));
    expect(closesEntry('ws-a', 'c1', new Date(at), 4)).toEqual({ gsi4pk: open.gsi5pk.replace('open', 'cold'), gsi4sk: at });
    expect(pendingConversations('open', 3)).toEqual({ index: 'pending', pk: 'DUE#open#3' });
    expect(closingConversations(3)).toEqual({ index: 'closes', pk: 'DUE#cold#3' });
  });

  it('read the conversation with its messages, and the list in every shard', () => {
    expect(conversationKey('o', 'w', 'c').sk).toBe(CONVERSATION_SORT_KEY);
    expect(messageKey('o', 'w', 'c', 1).sk.startsWith(MESSAGE_PREFIX)).toBe(true);
    // The conversation item sorts after its messages: a newest-first Query meets it first.
    expect(messageKey('o', 'w', 'c', 999_999).sk < CONVERSATION_SORT_KEY).toBe(true);
    expect(conversationWithMessages('o', 'w', 'c')).toEqual({ pk: 'CONV#o#w#c', consistent: true });
    expect(conversationNewestFirst('o', 'w', 'c', 41)).toEqual({ pk: 'CONV#o#w#c', newestFirst: true, limit: 41 });
    expect(conversationsOfWorkspace('o', 'w').map((query) => query.pk)).toEqual([
      'WSCONV#o#w',
      'WSCONV#o#w#1',
      'WSCONV#o#w#2',
      'WSCONV#o#w#3',
    ]);
  });
});
