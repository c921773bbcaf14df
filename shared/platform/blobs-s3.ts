import type { S3Client } from '@aws-sdk/client-s3';
import type { BlobStore, UploadTarget } from './blobs.js';

/*
 * The blob store on AWS: one S3 bucket of the stack (encrypted with S3-managed keys, public access
 * blocked, TLS only: lib/knowledge.ts). The S3 client is loaded with the first call, so a function
 * that never touches a document does not load it at its cold start.
 */
export class S3BlobStore implements BlobStore {
  private client: Promise<{ s3: S3Client; sdk: typeof import('@aws-sdk/client-s3') }> | undefined;

  constructor(
    private readonly bucket: string,
    private readonly region?: string,
  ) {}

  private load() {
    this.client ??= import('@aws-sdk/client-s3').then((sdk) => ({ sdk, s3: new sdk.S3Client(this.region ? { region: this.region } : {}) }));
    return this.client;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const { s3, sdk } = await this.load();
    await s3.send(new sdk.PutObjectCommand({ Bucket: this.bucket, Key: key, Body: bytes }));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    const { s3, sdk } = await this.load();
    try {
      const answer = await s3.send(new sdk.GetObjectCommand({ Bucket: this.bucket, Key: key }));
      return answer.Body ? await answer.Body.transformToByteArray() : undefined;
    } catch (error) {
      if ((error as Error).name === 'NoSuchKey') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const { s3, sdk } = await this.load();
    await s3.send(new sdk.DeleteObjectCommand({ Bucket: this.bucket, Key: key }));
  }

  /**
   * A presigned POST to the bucket: the policy names the key and the file's size (1 to `maxBytes`
   * bytes, checked by S3), signed with the function's own credentials, valid `expiresInSeconds`.
   */
  async uploadTarget(key: string, maxBytes: number, expiresInSeconds: number): Promise<UploadTarget> {
    const [{ s3 }, { createPresignedPost }] = await Promise.all([this.load(), import('@aws-sdk/s3-presigned-post')]);
    return createPresignedPost(s3, {
      Bucket: this.bucket,
      Key: key,
      Conditions: [['content-length-range', 1, maxBytes]],
      Expires: expiresInSeconds,
    });
  }
}
