import { entryDocument } from '../shared/knowledge/documents/documents.js';
import { everyKnowledgeEntry } from '../shared/knowledge/entities.js';
import { recordJob } from '../shared/jobs/index.js';
import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { putNew } from '../shared/platform/updates.js';

/*
 * 011: every knowledge entry is a knowledge document of its own (its id is the entry's), read into
 * passages, indexed and cited like an uploaded file; versions before searched entries by keyword,
 * apart. Each entry without a document gets one (`queued`, put only while there is none: one its
 * change made meanwhile stays) and the job that reads it, recorded in the job ledger: the local
 * runtime runs the ledger's pending jobs at its start, and on AWS the sweep sends those the queue
 * has not had within five minutes (jobs/ops.ts `redeliverStuckJobs`).
 */

/** The organisation and workspace of an entry, from its partition `WS#<org>#<ws>`. */
function workspaceOf(pk: string): { orgId: string; workspaceId: string } | undefined {
  const [prefix, orgId, workspaceId, ...rest] = pk.split('#');
  return prefix === 'WS' && orgId && workspaceId && rest.length === 0 ? { orgId, workspaceId } : undefined;
}

async function readEntriesAsDocuments(context: MigrationContext): Promise<void> {
  for await (const item of context.scan('entries', everyKnowledgeEntry())) {
    const where = workspaceOf(item.pk);
    const { id, title, updated_at: updatedAt } = item;
    if (!where || typeof id !== 'string' || typeof title !== 'string' || typeof updatedAt !== 'string') {
      context.left();
      continue;
    }
    const { item: document, job } = entryDocument(where.orgId, where.workspaceId, { id, title, updated_at: updatedAt }, '');
    if (!(await putNew(context.table, document))) continue;
    await recordJob(context, job);
    context.moved();
  }
}

export const entriesAsDocuments: Migration = {
  version: 11,
  name: 'every knowledge entry is a knowledge document, read into the index',
  run: readEntriesAsDocuments,
};
