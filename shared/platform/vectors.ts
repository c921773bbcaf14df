/*
 * A store of passages' vectors outside the knowledge index: S3 Vectors on AWS (vectors-s3.ts), an
 * index per workspace and embedding space. Locally there is none: the index keeps the vectors
 * (knowledge/search/passage-vectors.ts). Keys are `<document id>#<position>`; nothing but the
 * vector is stored with them.
 */

/** Whose vectors, of which embedding space. */
export interface VectorSpace {
  orgId: string;
  workspaceId: string;
  /** The embedder's space (provider, model, dimensions). */
  space: string;
}

export interface VectorHit {
  documentId: string;
  position: number;
  similarity: number;
}

export interface VectorStore {
  /** Puts a document's vectors, one per passage from position 0 (replacing those of the same keys). */
  put(where: VectorSpace, documentId: string, vectors: readonly Float32Array[]): Promise<void>;
  /** Deletes a document's vectors at positions `from` (0 by default) to `count` − 1; nothing for those there are not. */
  remove(where: VectorSpace, documentId: string, count: number, from?: number): Promise<void>;
  /** The `limit` vectors nearest `query`, nearest first; none when the space has none yet. */
  nearest(where: VectorSpace, query: Float32Array, limit: number): Promise<VectorHit[]>;
}

/** A passage's key in a vector store. */
export const vectorKey = (documentId: string, position: number) => `${documentId}#${position}`;

/** The document and position a key names; undefined for a key of another form. */
export function parseVectorKey(key: string): { documentId: string; position: number } | undefined {
  const at = key.lastIndexOf('#');
  const position = Number(key.slice(at + 1));
  if (at <= 0 || !Number.isInteger(position) || position < 0) return undefined;
  return { documentId: key.slice(0, at), position };
}

/** A store made on its first call (its module and SDK loaded then, not at a cold start). */
export function lazyVectorStore(make: () => Promise<VectorStore>): VectorStore {
  let store: Promise<VectorStore> | undefined;
  const load = () => {
    store ??= make();
    return store;
  };
  return {
    put: async (...args) => (await load()).put(...args),
    remove: async (...args) => (await load()).remove(...args),
    nearest: async (...args) => (await load()).nearest(...args),
  };
}
