import type { Deps } from '../../deps.js';
import { passagesIndexed } from './index-store.js';
import type { DocumentVectors, StoredPassage } from './passage-index.js';

/*
 * A document's passages embedded at ingestion (docs/knowledge.md, "Embeddings"): each as its
 * document's title, its heading path and its text, as the full-text index reads it. Where the
 * vectors live: the vector store when the runtime has one (S3 Vectors on AWS), else the index.
 */

/** What is embedded of a passage: its context (title, section), then its text. */
const textOfPassage = (passage: Pick<StoredPassage, 'title' | 'section' | 'text'>) =>
  `${[passage.title, passage.section].filter(Boolean).join(' › ')}\n\n${passage.text}`;

/** The document's vectors for the index, or undefined when no embedding provider is configured. */
export async function embedPassages(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  documentId: string,
  passages: readonly StoredPassage[],
): Promise<DocumentVectors | undefined> {
  const embedder = deps.embedder;
  if (!embedder || passages.length === 0) return undefined;
  const vectors = await embedder.embed(passages.map(textOfPassage), 'passage');
  if (!deps.vectors) return { space: embedder.space, vectors };
  const where = { orgId, workspaceId, space: embedder.space };
  await deps.vectors.put(where, documentId, vectors);
  // A document read again into fewer passages: the vectors past its end go.
  const before = await passagesIndexed(deps, orgId, workspaceId, documentId);
  if (before > vectors.length) await deps.vectors.remove(where, documentId, before, vectors.length);
  return { space: embedder.space, vectors: null };
}

/** Takes a document's vectors out of the vector store, while the index still counts its passages (the index's go with them). */
export async function removeVectors(deps: Deps, orgId: string, workspaceId: string, documentId: string): Promise<void> {
  if (!deps.vectors || !deps.embedder) return;
  const count = await passagesIndexed(deps, orgId, workspaceId, documentId);
  if (count > 0) await deps.vectors.remove({ orgId, workspaceId, space: deps.embedder.space }, documentId, count);
}
