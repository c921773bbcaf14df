import { createHash } from 'node:crypto';
import type { S3VectorsClient, S3VectorsClientConfig } from '@aws-sdk/client-s3vectors';
import { parseVectorKey, type VectorHit, vectorKey, type VectorSpace, type VectorStore } from './vectors.js';

/** S3 Vectors takes up to 500 vectors in one put or delete. */
const BATCH = 500;

/** The most a query asks for (S3 Vectors answers up to 30 at its smallest limit). */
const MAX_TOP_K = 30;

type Sdk = typeof import('@aws-sdk/client-s3vectors');

/**
 * The knowledge's vectors on AWS: the stack's S3 vector bucket, an index per workspace and embedding
 * space (cosine distance), made with the first put. An index's name is a digest of the
 * organisation, the workspace and the space: ids of any length fit its 63 characters, and another
 * workspace's index is never named by this one's. The SDK is loaded with the first call.
 */
export class S3VectorStore implements VectorStore {
  private client: Promise<{ s3v: S3VectorsClient; sdk: Sdk }> | undefined;
  private readonly made = new Set<string>();

  constructor(
    /** The vector bucket's ARN (`VECTOR_BUCKET_ARN`, which the stack sets). */
    private readonly bucketArn: string,
    /** The client's settings: the region on AWS; an endpoint and credentials in tests. */
    private readonly clientConfig: S3VectorsClientConfig = {},
  ) {}

  private load() {
    this.client ??= import('@aws-sdk/client-s3vectors').then((sdk) => ({ sdk, s3v: new sdk.S3VectorsClient(this.clientConfig) }));
    return this.client;
  }

  private indexName(where: VectorSpace): string {
    return `ws-${createHash('sha256').update(`${where.orgId}\u0000${where.workspaceId}\u0000${where.space}`).digest('hex').slice(0, 48)}`;
  }

  private indexArn(where: VectorSpace): string {
    return `${this.bucketArn}/index/${this.indexName(where)}`;
  }

  /** Makes the index once per process; one made already (by another process) is fine. */
  private async ensureIndex(where: VectorSpace, dimension: number): Promise<void> {
    const name = this.indexName(where);
    if (this.made.has(name)) return;
    const { s3v, sdk } = await this.load();
    try {
      await s3v.send(
        new sdk.CreateIndexCommand({
          vectorBucketArn: this.bucketArn,
          indexName: name,
          dataType: 'float32',
          dimension,
          distanceMetric: 'cosine',
        }),
      );
    } catch (error) {
      if ((error as Error).name !== 'ConflictException') throw error;
    }
    this.made.add(name);
  }

  async put(where: VectorSpace, documentId: string, vectors: readonly Float32Array[]): Promise<void> {
    if (vectors.length === 0) return;
    await this.ensureIndex(where, (vectors[0] as Float32Array).length);
    const { s3v, sdk } = await this.load();
    const indexArn = this.indexArn(where);
    for (let start = 0; start < vectors.length; start += BATCH) {
      const batch = vectors
        .slice(start, start + BATCH)
        .map((vector, i) => ({ key: vectorKey(documentId, start + i), data: { float32: [...vector] } }));
      await s3v.send(new sdk.PutVectorsCommand({ indexArn, vectors: batch }));
    }
  }

  async remove(where: VectorSpace, documentId: string, count: number, from = 0): Promise<void> {
    const { s3v, sdk } = await this.load();
    const indexArn = this.indexArn(where);
    for (let start = from; start < count; start += BATCH) {
      const keys = Array.from({ length: Math.min(BATCH, count - start) }, (_, i) => vectorKey(documentId, start + i));
      try {
        await s3v.send(new sdk.DeleteVectorsCommand({ indexArn, keys }));
      } catch (error) {
        if ((error as Error).name === 'NotFoundException') return;
        throw error;
      }
    }
  }

  async nearest(where: VectorSpace, query: Float32Array, limit: number): Promise<VectorHit[]> {
    const { s3v, sdk } = await this.load();
    try {
      const answer = await s3v.send(
        new sdk.QueryVectorsCommand({
          indexArn: this.indexArn(where),
          queryVector: { float32: [...query] },
          topK: Math.min(limit, MAX_TOP_K),
          returnDistance: true,
        }),
      );
      return (answer.vectors ?? []).flatMap((hit) => {
        const key = hit.key ? parseVectorKey(hit.key) : undefined;
        return key ? [{ ...key, similarity: 1 - (hit.distance ?? 1) }] : [];
      });
    } catch (error) {
      if ((error as Error).name === 'NotFoundException') return [];
      throw error;
    }
  }
}
