import { type Migration, schemaVersionOf } from '../shared/platform/migrations.js';
import { workspaceKeys } from './002-workspace-keys.js';
import { conversationIndexes } from './003-conversation-indexes.js';
import { workspacePartitions } from './004-workspace-partitions.js';
import { dayUsage } from './005-day-usage.js';
import { signInAndSettings } from './006-sign-in-and-settings.js';
import { approvalsAndEvaluationCounts } from './007-approvals-and-evaluation-counts.js';
import { jobLedger } from './008-job-ledger.js';
import { sealedSecrets } from './009-sealed-secrets.js';
import { conversationStarters } from './010-conversation-starters.js';
import { entriesAsDocuments } from './011-entries-as-documents.js';
import { shardedKnowledgeIndex } from './012-sharded-knowledge-index.js';

/*
 * Every migration of stored data, in order (shared/platform/migrations.ts runs them). A change of
 * what is stored that older items would not match adds one here, numbered after the last, which
 * rewrites those items; readers then read only the new shape. Version 1 is the first, which had
 * none.
 */
export const MIGRATIONS: readonly Migration[] = [
  workspaceKeys,
  conversationIndexes,
  workspacePartitions,
  dayUsage,
  signInAndSettings,
  approvalsAndEvaluationCounts,
  jobLedger,
  sealedSecrets,
  conversationStarters,
  entriesAsDocuments,
  shardedKnowledgeIndex,
];

/** The schema version this code reads: the number of its last migration. */
export const SCHEMA_VERSION = schemaVersionOf(MIGRATIONS);
