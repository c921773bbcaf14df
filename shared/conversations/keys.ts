import type { Key } from '../platform/table.js';

/**
 * A conversation and its messages share a partition (`CONV#<workspace>#<conversation>`): the
 * messages `MSG#<seq, 6 digits>` and the conversation item `STATE`, which sorts after them, so
 * one newest-first Query returns the conversation with its latest messages. The conversation item
 * is also in GSI1 (all of the workspace's, by last activity) and GSI2 (the same, per status).
 */
export const conversationKeys = {
  partition: (workspaceId: string, conversationId: string) => `CONV#${workspaceId}#${conversationId}`,
  conversation: (workspaceId: string, conversationId: string): Key => ({
    pk: `CONV#${workspaceId}#${conversationId}`,
    sk: 'STATE',
  }),
  message: (workspaceId: string, conversationId: string, seq: number): Key => ({
    pk: `CONV#${workspaceId}#${conversationId}`,
    sk: `MSG#${String(seq).padStart(6, '0')}`,
  }),
};
