/*
 * The passages' vectors of a workspace as its index keeps them (the embedded vector store: the
 * local runtime's), or only which documents have them where the store keeps them elsewhere (S3
 * Vectors on AWS, `deps.vectors`). Vectors are of one space (provider, model, dimensions) at a
 * time: a document embedded in another space replaces them all (docs/knowledge.md, "Embeddings").
 */

/** A passage near a question: its document, its place there and the cosine similarity of their vectors. */
export interface NearPassage {
  documentId: string;
  position: number;
  similarity: number;
}

/** What the index's blob holds of them: each document's vectors, one after another, as base64 of float32s. */
export interface StoredVectors {
  space: string;
  dimensions: number;
  /** A document's vectors, or null when they are kept by the vector store. */
  documents: Record<string, string | null>;
}

export class PassageVectors {
  private constructor(
    private space: string | undefined,
    private dimensions: number,
    /** Each document's vectors (positions × dimensions), or null when kept elsewhere. */
    private readonly documents: Map<string, Float32Array | null>,
  ) {}

  static empty(): PassageVectors {
    return new PassageVectors(undefined, 0, new Map());
  }

  static fromStored(stored: StoredVectors | undefined): PassageVectors {
    if (!stored) return PassageVectors.empty();
    const documents = new Map<string, Float32Array | null>();
    for (const [id, data] of Object.entries(stored.documents)) {
      if (data === null) documents.set(id, null);
      else {
        const bytes = Buffer.from(data, 'base64');
        documents.set(id, new Float32Array(bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength)));
      }
    }
    return new PassageVectors(stored.space, stored.dimensions, documents);
  }

  toStored(): StoredVectors | undefined {
    if (!this.space) return undefined;
    const documents: Record<string, string | null> = {};
    for (const [id, vectors] of this.documents) {
      documents[id] = vectors ? Buffer.from(vectors.buffer, vectors.byteOffset, vectors.byteLength).toString('base64') : null;
    }
    return { space: this.space, dimensions: this.dimensions, documents };
  }

  /** How many documents have vectors in `space`. */
  documentsIn(space: string): number {
    return this.space === space ? this.documents.size : 0;
  }

  /** Whether the document has vectors in `space`. */
  has(space: string, documentId: string): boolean {
    return this.space === space && this.documents.has(documentId);
  }

  /**
   * Records the document's vectors in `space`: kept here when given, else only that the vector store
   * has them. A space other than the one held replaces every document's (they are read again).
   */
  set(space: string, documentId: string, vectors: readonly Float32Array[] | null): void {
    if (this.space !== space) {
      this.space = space;
      this.dimensions = vectors?.[0]?.length ?? 0;
      this.documents.clear();
    }
    if (!vectors) {
      this.documents.set(documentId, null);
      return;
    }
    const dimensions = vectors[0]?.length ?? this.dimensions;
    if (this.dimensions === 0) this.dimensions = dimensions;
    if (vectors.some((vector) => vector.length !== this.dimensions)) {
      throw new Error(`vectors of ${dimensions} dimensions in a space of ${this.dimensions}`);
    }
    const all = new Float32Array(vectors.length * this.dimensions);
    for (const [position, vector] of vectors.entries()) all.set(vector, position * this.dimensions);
    this.documents.set(documentId, all);
  }

  remove(documentId: string): void {
    this.documents.delete(documentId);
  }

  /** The document's vectors as `set` takes them: undefined when it has none, `vectors: null` when the vector store keeps them. */
  of(documentId: string): { space: string; vectors: Float32Array[] | null } | undefined {
    if (!this.space || !this.documents.has(documentId)) return undefined;
    const all = this.documents.get(documentId);
    if (!all) return { space: this.space, vectors: null };
    const vectors: Float32Array[] = [];
    for (let start = 0; start < all.length; start += this.dimensions) vectors.push(all.slice(start, start + this.dimensions));
    return { space: this.space, vectors };
  }

  /** The `limit` passages kept here nearest to `query` (a unit vector of `space`), nearest first; none unrelated (similarity ≤ 0). */
  nearest(space: string, query: Float32Array, limit: number): NearPassage[] {
    if (this.space !== space || query.length !== this.dimensions) return [];
    const near: NearPassage[] = [];
    let worst = Number.NEGATIVE_INFINITY;
    for (const [documentId, vectors] of this.documents) {
      if (!vectors) continue;
      for (let position = 0; position * this.dimensions < vectors.length; position += 1) {
        const similarity = dot(vectors, position * this.dimensions, query);
        // Orthogonal or opposite: unrelated, whatever the rank it would have.
        if (similarity <= 0 || (near.length >= limit && similarity <= worst)) continue;
        near.push({ documentId, position, similarity });
        if (near.length > limit * 4) worst = trim(near, limit);
      }
    }
    trim(near, limit);
    return near;
  }
}

function dot(vectors: Float32Array, offset: number, query: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < query.length; i += 1) sum += (vectors[offset + i] as number) * (query[i] as number);
  return sum;
}

/** Keeps the `limit` nearest of `near` (sorted, nearest first) and answers the similarity of the last kept. */
function trim(near: NearPassage[], limit: number): number {
  near.sort((a, b) => b.similarity - a.similarity);
  near.length = Math.min(near.length, limit);
  return near.length >= limit ? (near[near.length - 1] as NearPassage).similarity : Number.NEGATIVE_INFINITY;
}
