import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import { chmod, mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { LRUCache } from 'lru-cache';

/*
 * Secrets at rest (docs/security.md, "Secrets at rest"): envelope encryption. Each sealed value is
 * AES-256-GCM under a data key, and carries that data key wrapped by a key kept outside the table
 * (a KMS key on AWS, a key file locally). The value is bound to where it is stored (`context`, the
 * GCM additional data), so a sealed value copied into another item or organisation does not open.
 */

/** What the domains that own secrets use: seal before writing, open after reading. */
export interface Secrets {
  seal(plaintext: string, context: string): Promise<string>;
  open(stored: string, context: string): Promise<string>;
}

/** Wraps and unwraps data keys with the key kept outside the table. */
export interface KeyWrapper {
  /** A fresh 256-bit data key and its wrapped form, to store beside what it encrypts. */
  newDataKey(): Promise<{ plaintext: Buffer; wrapped: Buffer }>;
  unwrap(wrapped: Buffer): Promise<Buffer>;
}

const PREFIX = 'sealed:v1:';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** Whether a stored value is sealed (one written before encryption was introduced is not: migration 009 sealed those). */
export function isSealed(value: unknown): value is string {
  return typeof value === 'string' && value.startsWith(PREFIX);
}

export class SecretDecryptionError extends Error {
  constructor(context: string, options?: { cause?: unknown }) {
    super(`a stored secret (${context}) could not be decrypted: it was altered, moved, or sealed with another key`, options);
    this.name = 'SecretDecryptionError';
  }
}

/** Thrown by a key wrapper whose key refuses a wrapped data key (not ours, or altered); any other failure (an outage) passes as it is. */
export class WrongKeyError extends Error {
  constructor(options?: { cause?: unknown }) {
    super('the data key was not wrapped by this key, or was altered', options);
    this.name = 'WrongKeyError';
  }
}

const b64 = (bytes: Buffer) => bytes.toString('base64url');

/**
 * Envelope encryption over a key wrapper. A data key seals values for a few minutes, then a new one
 * is made (one KMS call per process per period, not per secret); unwrapped data keys are cached, so
 * reading the same secrets again costs no KMS call.
 */
export class EnvelopeSecrets implements Secrets {
  private current: { plaintext: Buffer; wrapped: Buffer; until: number } | undefined;
  /** The data key being made: seals that arrive meanwhile wait for it rather than each asking KMS. */
  private making: Promise<{ plaintext: Buffer; wrapped: Buffer; until: number }> | undefined;
  /** Unwrapped data keys (or the unwrap under way), by their wrapped form. */
  private readonly unwrapped = new LRUCache<string, Promise<Buffer>>({ max: 256, ttl: 15 * 60 * 1000 });

  constructor(
    private readonly wrapper: KeyWrapper,
    private readonly dataKeyLifetimeMs = 5 * 60 * 1000,
  ) {}

  async seal(plaintext: string, context: string): Promise<string> {
    const key = await this.dataKey();
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', key.plaintext, iv);
    cipher.setAAD(Buffer.from(context, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final(), cipher.getAuthTag()]);
    return `${PREFIX}${b64(key.wrapped)}:${b64(iv)}:${b64(body)}`;
  }

  async open(stored: string, context: string): Promise<string> {
    const parts = stored.slice(PREFIX.length).split(':');
    const [wrapped, iv, body] = parts;
    if (!isSealed(stored) || parts.length !== 3 || !wrapped || !iv || !body) throw new SecretDecryptionError(context);
    const key = await this.unwrap(wrapped, context);
    try {
      const data = Buffer.from(body, 'base64url');
      const decipher = createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAAD(Buffer.from(context, 'utf8'));
      decipher.setAuthTag(data.subarray(data.length - TAG_BYTES));
      return Buffer.concat([decipher.update(data.subarray(0, data.length - TAG_BYTES)), decipher.final()]).toString('utf8');
    } catch {
      throw new SecretDecryptionError(context);
    }
  }

  private async dataKey() {
    if (this.current && this.current.until > performance.now()) return this.current;
    this.making ??= this.wrapper
      .newDataKey()
      .then((fresh) => {
        this.current = { ...fresh, until: performance.now() + this.dataKeyLifetimeMs };
        this.unwrapped.set(b64(fresh.wrapped), Promise.resolve(fresh.plaintext));
        return this.current;
      })
      .finally(() => {
        this.making = undefined;
      });
    return this.making;
  }

  private async unwrap(wrapped: string, context: string): Promise<Buffer> {
    let key = this.unwrapped.get(wrapped);
    if (!key) {
      key = this.wrapper.unwrap(Buffer.from(wrapped, 'base64url'));
      this.unwrapped.set(wrapped, key);
      // A failed unwrap is not kept: the next open asks again (after an outage, say).
      key.catch(() => this.unwrapped.delete(wrapped));
    }
    try {
      return await key;
    } catch (error) {
      if (error instanceof WrongKeyError) throw new SecretDecryptionError(context, { cause: error });
      throw error;
    }
  }
}

/** Wraps data keys with a local 256-bit key (AES-256-GCM): the local runtime's stand-in for KMS. */
export class LocalKeyWrapper implements KeyWrapper {
  constructor(private readonly masterKey: Buffer) {
    if (masterKey.length !== 32) throw new Error('the local secrets key must be 32 bytes');
  }

  async newDataKey() {
    const plaintext = randomBytes(32);
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv('aes-256-gcm', this.masterKey, iv);
    const wrapped = Buffer.concat([iv, cipher.update(plaintext), cipher.final(), cipher.getAuthTag()]);
    return { plaintext, wrapped };
  }

  async unwrap(wrapped: Buffer): Promise<Buffer> {
    try {
      const decipher = createDecipheriv('aes-256-gcm', this.masterKey, wrapped.subarray(0, IV_BYTES));
      decipher.setAuthTag(wrapped.subarray(wrapped.length - TAG_BYTES));
      return Buffer.concat([decipher.update(wrapped.subarray(IV_BYTES, wrapped.length - TAG_BYTES)), decipher.final()]);
    } catch (error) {
      throw new WrongKeyError({ cause: error });
    }
  }
}

export const SECRETS_KEY_FILE = 'secrets.key';

/**
 * The local runtime's key: `<DATA_DIR>/secrets.key` (32 random bytes, base64, mode 0600),
 * generated on first start and kept; in memory only when there is no data directory.
 */
export async function localSecretsKey(dataDir: string | null): Promise<Buffer> {
  if (!dataDir) return randomBytes(32);
  const file = join(dataDir, SECRETS_KEY_FILE);
  try {
    const key = Buffer.from((await readFile(file, 'utf8')).trim(), 'base64');
    if (key.length !== 32) throw new Error(`${file} does not hold a 32-byte key (base64); restore it from a backup`);
    return key;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const key = randomBytes(32);
  await mkdir(dataDir, { recursive: true });
  try {
    await writeFile(file, `${key.toString('base64')}\n`, { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process sharing the data directory wrote it first: use that one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return localSecretsKey(dataDir);
    throw error;
  }
  await chmod(file, 0o600);
  return key;
}

/** Secrets sealed with a key that lives only in this process (tests, benchmarks, `DATA_DIR=memory`). */
export function inMemorySecrets(): Secrets {
  return new EnvelopeSecrets(new LocalKeyWrapper(randomBytes(32)));
}
