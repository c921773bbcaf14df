import { mkdir, readFile, rm, writeFile, rename } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';

/*
 * Files the service keeps outside the table: knowledge documents as uploaded, their passages and
 * each workspace's search index. S3 on AWS (platform/blobs-s3.ts, a bucket of the stack, encrypted),
 * the data directory locally, memory with `DATA_DIR=memory` and in tests. Keys are the service's
 * own (`knowledge/<org>/<workspace>/…`), never a name a tenant chose.
 */
/** Where a client sends a file itself: a multipart POST to `url` of `fields`, then the file as field `file`. */
export interface UploadTarget {
  url: string;
  fields: Record<string, string>;
}

export interface BlobStore {
  put(key: string, bytes: Uint8Array): Promise<void>;
  /** The blob's bytes, or undefined when there is none. */
  get(key: string): Promise<Uint8Array | undefined>;
  /** Deletes the blob; nothing when there is none. */
  delete(key: string): Promise<void>;
  /**
   * Where a client sends a file of 1 to `maxBytes` bytes to be kept as `key`, for `expiresInSeconds`,
   * without it passing through the service: S3's presigned POST on AWS. Undefined for the stores
   * the service's own upload route writes to (locally, in tests).
   */
  uploadTarget(key: string, maxBytes: number, expiresInSeconds: number): Promise<UploadTarget | undefined>;
}

/** A key the stores take: segments of letters, digits, `_`, `-` and `.`, never `..`. */
function checkedKey(key: string): string {
  if (!/^[A-Za-z0-9_.-]+(\/[A-Za-z0-9_.-]+)*$/.test(key) || key.split('/').some((part) => part === '..' || part === '.')) {
    throw new Error(`not a blob key: ${key}`);
  }
  return key;
}

/** Blobs in this process's memory (`DATA_DIR=memory`, tests): gone when it stops. */
export class MemoryBlobStore implements BlobStore {
  private readonly blobs = new Map<string, Uint8Array>();

  async put(key: string, bytes: Uint8Array): Promise<void> {
    this.blobs.set(checkedKey(key), new Uint8Array(bytes));
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    return this.blobs.get(checkedKey(key));
  }

  async delete(key: string): Promise<void> {
    this.blobs.delete(checkedKey(key));
  }

  async uploadTarget(): Promise<undefined> {
    return undefined;
  }
}

/** Blobs as files under a directory (`DATA_DIR/blobs` locally), each written whole then renamed into place. */
export class FileBlobStore implements BlobStore {
  private readonly root: string;

  constructor(root: string) {
    this.root = resolve(root);
  }

  private pathOf(key: string): string {
    const path = join(this.root, ...checkedKey(key).split('/'));
    if (!path.startsWith(this.root + sep)) throw new Error(`not a blob key: ${key}`);
    return path;
  }

  async put(key: string, bytes: Uint8Array): Promise<void> {
    const path = this.pathOf(key);
    await mkdir(dirname(path), { recursive: true, mode: 0o700 });
    const partial = `${path}.partial`;
    await writeFile(partial, bytes, { mode: 0o600 });
    await rename(partial, path);
  }

  async get(key: string): Promise<Uint8Array | undefined> {
    try {
      return new Uint8Array(await readFile(this.pathOf(key)));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    await rm(this.pathOf(key), { force: true });
  }

  async uploadTarget(): Promise<undefined> {
    return undefined;
  }
}
