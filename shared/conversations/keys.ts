import type { Key } from '../platform/table.js';

/**
 * A conversation and its messages share a partition (`CONV#<workspace>#<conversation>`: `CONV`, then
 * `MSG#<seq, 6 digits>`), so reading one with its messages is one Query. The conversation item is
 * also in GSI1 (all of the workspace's, by last activity) and GSI2 (the same, per status).
 */
export const conversationKeys = {
  partition: (workspaceId: string, conversationId: string) => `CONV#${workspaceId}#${conversationId}`,
  conversation: (workspaceId: string, conversationId: string): Key => ({
    pk: `CONV#${workspaceId}#${conversationId}`,
    sk: 'CONV',
  }),
  message: (workspaceId: string, conversationId: string, seq: number): Key => ({
    pk: `CONV#${workspaceId}#${conversationId}`,
    sk: `MSG#${String(seq).padStart(6, '0')}`,
  }),
};
