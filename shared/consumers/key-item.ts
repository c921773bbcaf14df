import type { Key } from '../platform/table.js';

export type KeyConsumerType = 'api' | 'messaging' | 'coding-agent';

/** The key record, found by the key's hash: what a Bearer key authenticates as. */
export interface ApiKeyItem extends Key {
  consumer_id: string;
  workspace_id: string;
  org_id: string;
  type: KeyConsumerType;
  status: 'active' | 'revoked';
  /** When the key last authenticated, to the minute (`recordKeyUse`); copied to the consumer item. */
  last_used_at?: string;
}
