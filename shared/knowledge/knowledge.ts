import { z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { type Key, onConditionFailed } from '../platform/table.js';
import { addWorkspaceCounters, getWorkspaceItem } from '../workspaces/index.js';
import { createEntryDocument, deleteEntry, requeueEntryDocument } from './documents/documents.js';
import { knowledgeKey, knowledgeUpdate } from './entities.js';

export const KnowledgeBody = z
  .object({
    title: z.string().trim().min(1, 'must not be empty').max(200, 'must be at most 200 characters'),
    content: z.string().trim().min(1, 'must not be empty').max(100_000, 'must be at most 100000 characters'),
  })
  .openapi('KnowledgeRequest');
export type KnowledgeInput = z.infer<typeof KnowledgeBody>;

export const KnowledgeUpdateBody = KnowledgeBody.partial()
  .refine((body) => body.title !== undefined || body.content !== undefined, { message: 'give title or content' })
  .openapi('KnowledgeUpdateRequest');

export interface KnowledgeItem extends Key {
  id: string;
  title: string;
  content: string;
  created_at: string;
  updated_at: string;
}

function toKnowledge(item: KnowledgeItem) {
  return { id: item.id, title: item.title, content: item.content, created_at: item.created_at, updated_at: item.updated_at };
}

/*
 * Knowledge entries: a title and a text typed in the console or the API. Each is a knowledge
 * document of its own too (its id is the document's, documents/documents.ts `createEntryDocument`):
 * read into passages, indexed and cited like an uploaded file. Entries that fit the budget also
 * reach the model in its cached system prompt.
 */

export async function createKnowledge(deps: Deps, orgId: string, workspaceId: string, input: KnowledgeInput, userId: string) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const now = deps.clock.now();
  const id = newId('kn', now);
  const item: KnowledgeItem = {
    ...knowledgeKey(orgId, workspaceId, id),
    id,
    title: input.title,
    content: input.content,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await deps.table.put(item);
  await addWorkspaceCounters(deps, orgId, workspaceId, { knowledge_count: 1 });
  await createEntryDocument(deps, orgId, workspaceId, item, userId);
  return toKnowledge(item);
}

export async function updateKnowledge(deps: Deps, orgId: string, workspaceId: string, id: string, input: Partial<KnowledgeInput>) {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const { key, input: update } = knowledgeUpdate(orgId, workspaceId, id, input, deps.clock.now().toISOString());
  const item = await onConditionFailed(
    deps.table.update<KnowledgeItem>(key, update),
    () => new NotFoundError(`knowledge entry ${id} not found`),
  );
  await requeueEntryDocument(deps, orgId, workspaceId, item);
  return toKnowledge(item);
}

/** Deletes an entry and its document. */
export async function deleteKnowledge(deps: Deps, orgId: string, workspaceId: string, id: string): Promise<void> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  await deleteEntry(deps, orgId, workspaceId, id);
}

/** A rough token count (about four characters a token), enough to keep the prompt in budget. */
const estimateTokens = (text: string) => Math.ceil(text.length / 4);

/** Entries go into the system prompt while they fit this many tokens; beyond, they are searched like any document. */
const KNOWLEDGE_PROMPT_BUDGET = 8_000;

export function knowledgeSection(entries: { title: string; content: string }[]): string {
  return ['## Workspace knowledge', ...entries.map((entry) => `### ${entry.title}\n${entry.content}`)].join('\n\n');
}

/** Whether all of a workspace's knowledge fits the cached system prefix. */
export function fitsPrompt(entries: { title: string; content: string }[]): boolean {
  return entries.length > 0 && estimateTokens(knowledgeSection(entries)) <= KNOWLEDGE_PROMPT_BUDGET;
}

/** The built-in tool the model gets when the knowledge is too large for the prompt. */
export const SEARCH_KNOWLEDGE_TOOL = {
  name: 'search_knowledge',
  description: "Search the workspace's knowledge base (its own documentation and answers). Use it before saying you do not know.",
  inputSchema: { type: 'object', properties: { query: { type: 'string', description: 'keywords to look for' } }, required: ['query'] },
};
