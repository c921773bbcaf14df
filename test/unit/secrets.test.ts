import { randomBytes } from 'node:crypto';
import * as fs from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import {
  EnvelopeSecrets,
  inMemorySecrets,
  isSealed,
  type KeyWrapper,
  LocalKeyWrapper,
  localSecretsKey,
  SECRETS_KEY_FILE,
  SecretDecryptionError,
} from '../../shared/platform/secrets.js';

// Pass-through spies on the file system, to check that `localSecretsKey(null)` never touches the disk.
vi.mock('node:fs/promises', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs/promises')>();
  return {
    ...actual,
    readFile: vi.fn(actual.readFile),
    writeFile: vi.fn(actual.writeFile),
    mkdir: vi.fn(actual.mkdir),
    chmod: vi.fn(actual.chmod),
  };
});

const PLAINTEXT = 'xoxb-very-secret-token-1234567890';
const CONTEXT = 'org_1/connections/conn_1';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** The three base64url parts after `sealed:v1:`: wrapped data key, IV, ciphertext + tag. */
const partsOf = (sealed: string) => sealed.slice('sealed:v1:'.length).split(':');

/**
 * Changes one character of one part. The first character of a base64url string always lands whole in
 * the first decoded byte (no unused padding bits), so this always changes the decoded bytes.
 */
function flip(sealed: string, part: number): string {
  const parts = partsOf(sealed);
  const value = parts[part]!;
  parts[part] = (value[0] === 'A' ? 'B' : 'A') + value.slice(1);
  return `sealed:v1:${parts.join(':')}`;
}

/** A key wrapper that counts the calls it forwards to a `LocalKeyWrapper`. */
class CountingWrapper implements KeyWrapper {
  readonly inner: LocalKeyWrapper;
  newDataKeyCalls = 0;
  readonly unwrapped: Buffer[] = [];

  constructor(key: Buffer) {
    this.inner = new LocalKeyWrapper(key);
  }

  newDataKey() {
    this.newDataKeyCalls++;
    return this.inner.newDataKey();
  }

  unwrap(wrapped: Buffer) {
    this.unwrapped.push(Buffer.from(wrapped));
    return this.inner.unwrap(wrapped);
  }
}

async function expectDecryptionError(promise: Promise<unknown>, context: string, plaintext: string) {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(SecretDecryptionError);
  const message = (error as Error).message;
  expect(message).toContain(context);
  if (plaintext) expect(message).not.toContain(plaintext);
  expect((error as Error).name).toBe('SecretDecryptionError');
}

describe('EnvelopeSecrets: seal and open', () => {
  it.each([
    ['an API token', PLAINTEXT],
    ['unicode', 'pässwörd – 密码 – 🔑🗝️ – \u0000\u200b'],
    ['an empty string', ''],
    ['a long value', 'x'.repeat(100_000)],
    ['a value with colons', 'sealed:v1:a:b:c'],
  ])('round-trips %s', async (_name, plaintext) => {
    const secrets = inMemorySecrets();
    const sealed = await secrets.seal(plaintext, CONTEXT);
    expect(sealed.startsWith('sealed:v1:')).toBe(true);
    expect(partsOf(sealed)).toHaveLength(3);
    expect(await secrets.open(sealed, CONTEXT)).toBe(plaintext);
  });

  it('does not contain the plaintext, in clear or in base64', async () => {
    const secrets = inMemorySecrets();
    const sealed = await secrets.seal(PLAINTEXT, CONTEXT);
    expect(sealed).not.toContain(PLAINTEXT);
    expect(sealed).not.toContain(Buffer.from(PLAINTEXT).toString('base64url').slice(0, 16));
    expect(sealed).not.toContain(Buffer.from(PLAINTEXT).toString('base64').slice(0, 16));
  });

  it('seals the same value differently each time (random IV), under the same data key', async () => {
    const secrets = inMemorySecrets();
    const first = await secrets.seal(PLAINTEXT, CONTEXT);
    const second = await secrets.seal(PLAINTEXT, CONTEXT);
    expect(first).not.toBe(second);
    const [wrappedA, ivA, bodyA] = partsOf(first);
    const [wrappedB, ivB, bodyB] = partsOf(second);
    expect(wrappedA).toBe(wrappedB);
    expect(ivA).not.toBe(ivB);
    expect(bodyA).not.toBe(bodyB);
    expect(Buffer.from(ivA!, 'base64url')).toHaveLength(12);
    expect(await secrets.open(first, CONTEXT)).toBe(PLAINTEXT);
    expect(await secrets.open(second, CONTEXT)).toBe(PLAINTEXT);
  });

  it('opens a value only under the context it was sealed for', async () => {
    const secrets = inMemorySecrets();
    const sealed = await secrets.seal(PLAINTEXT, CONTEXT);
    for (const other of ['org_1/connections/conn_2', 'org_2/connections/conn_1', `${CONTEXT} `, '']) {
      await expectDecryptionError(secrets.open(sealed, other), other, PLAINTEXT);
    }
    expect(await secrets.open(sealed, CONTEXT)).toBe(PLAINTEXT);
  });

  it.each([
    ['the wrapped data key', 0],
    ['the IV', 1],
    ['the ciphertext', 2],
  ])('does not open after a character of %s was changed', async (_name, part) => {
    const secrets = inMemorySecrets();
    for (const plaintext of [PLAINTEXT, '']) {
      const sealed = await secrets.seal(plaintext, CONTEXT);
      const altered = flip(sealed, part);
      expect(altered).not.toBe(sealed);
      await expectDecryptionError(secrets.open(altered, CONTEXT), CONTEXT, plaintext);
      expect(await secrets.open(sealed, CONTEXT)).toBe(plaintext);
    }
  });

  it('does not open a truncated value', async () => {
    const secrets = inMemorySecrets();
    const sealed = await secrets.seal(PLAINTEXT, CONTEXT);
    const [wrapped, iv] = partsOf(sealed);
    const truncated = [
      sealed.slice(0, -1),
      sealed.slice(0, -4),
      sealed.slice(0, -22),
      `sealed:v1:${wrapped}:${iv}:`,
      `sealed:v1:${wrapped}:${iv}`,
      `sealed:v1:${wrapped}:${iv!.slice(0, -2)}`,
      `sealed:v1:${wrapped}:`,
      `sealed:v1:${wrapped!.slice(0, 10)}`,
      'sealed:v1:',
      'sealed:v1',
      '',
    ];
    for (const value of truncated) {
      await expectDecryptionError(secrets.open(value, CONTEXT), CONTEXT, PLAINTEXT);
    }
  });

  it('does not open a value that is not sealed', async () => {
    const secrets = inMemorySecrets();
    await expectDecryptionError(secrets.open(PLAINTEXT, CONTEXT), CONTEXT, PLAINTEXT);
    await expectDecryptionError(secrets.open('a:b:c', CONTEXT), CONTEXT, PLAINTEXT);
    await expectDecryptionError(secrets.open('sealed:v2:a:b:c', CONTEXT), CONTEXT, PLAINTEXT);
  });

  it('does not open a value sealed with another key', async () => {
    const sealed = await inMemorySecrets().seal(PLAINTEXT, CONTEXT);
    await expectDecryptionError(inMemorySecrets().open(sealed, CONTEXT), CONTEXT, PLAINTEXT);
  });

  it('names the context in its error and never the plaintext', async () => {
    const secrets = inMemorySecrets();
    const sealed = await secrets.seal(PLAINTEXT, CONTEXT);
    const error = await secrets.open(sealed, 'org_9/elsewhere').catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SecretDecryptionError);
    expect((error as Error).message).toContain('(org_9/elsewhere)');
    expect((error as Error).message).not.toContain(PLAINTEXT);
    expect((error as Error).message).not.toContain(sealed);
  });
});

describe('EnvelopeSecrets: data keys', () => {
  it('makes one data key for many seals within its lifetime, and a new one after it', async () => {
    const wrapper = new CountingWrapper(randomBytes(32));
    const lifetimeMs = 150;
    const secrets = new EnvelopeSecrets(wrapper, lifetimeMs);

    const started = performance.now();
    const first: string[] = [];
    for (let i = 0; i < 50; i++) first.push(await secrets.seal(`value ${i}`, CONTEXT));
    // The loop must stay within the lifetime for the assertion below to mean something.
    expect(performance.now() - started).toBeLessThan(lifetimeMs);
    expect(wrapper.newDataKeyCalls).toBe(1);
    expect(new Set(first.map((sealed) => partsOf(sealed)[0])).size).toBe(1);

    await sleep(lifetimeMs + 20);
    const later = await secrets.seal('later', CONTEXT);
    expect(wrapper.newDataKeyCalls).toBe(2);
    expect(partsOf(later)[0]).not.toBe(partsOf(first[0]!)[0]);

    // Its own values open without unwrapping: the data keys it made are cached.
    for (const [i, sealed] of first.entries()) expect(await secrets.open(sealed, CONTEXT)).toBe(`value ${i}`);
    expect(await secrets.open(later, CONTEXT)).toBe('later');
    expect(wrapper.unwrapped).toHaveLength(0);
  });

  it('keeps the default lifetime of minutes (one data key for many seals)', async () => {
    const wrapper = new CountingWrapper(randomBytes(32));
    const secrets = new EnvelopeSecrets(wrapper);
    for (let i = 0; i < 50; i++) await secrets.seal(`value ${i}`, CONTEXT);
    expect(wrapper.newDataKeyCalls).toBe(1);
  });

  it('unwraps each distinct data key once when opening values sealed elsewhere, then serves it from its cache', async () => {
    const key = randomBytes(32);
    // Three writers (three processes), each with its own data key.
    const writers = [0, 1, 2].map(() => new EnvelopeSecrets(new LocalKeyWrapper(key)));
    const sealed: { value: string; context: string; stored: string }[] = [];
    for (const [round, writer] of writers.entries()) {
      for (let i = 0; i < 4; i++) {
        const value = `writer ${round} value ${i}`;
        const context = `org_${round}/item_${i}`;
        sealed.push({ value, context, stored: await writer.seal(value, context) });
      }
    }
    const dataKeys = new Set(sealed.map(({ stored }) => partsOf(stored)[0]));
    expect(dataKeys.size).toBe(3);

    const wrapper = new CountingWrapper(key);
    const reader = new EnvelopeSecrets(wrapper);
    for (let pass = 0; pass < 3; pass++) {
      for (const { value, context, stored } of sealed) expect(await reader.open(stored, context)).toBe(value);
    }
    expect(wrapper.unwrapped).toHaveLength(3);
    expect(new Set(wrapper.unwrapped.map((wrapped) => wrapped.toString('base64url')))).toEqual(dataKeys);
    expect(wrapper.newDataKeyCalls).toBe(0);
  });

  it('does not cache a data key that failed to unwrap', async () => {
    const sealed = await inMemorySecrets().seal(PLAINTEXT, CONTEXT);
    const wrapper = new CountingWrapper(randomBytes(32));
    const reader = new EnvelopeSecrets(wrapper);
    await expectDecryptionError(reader.open(sealed, CONTEXT), CONTEXT, PLAINTEXT);
    await expectDecryptionError(reader.open(sealed, CONTEXT), CONTEXT, PLAINTEXT);
    expect(wrapper.unwrapped).toHaveLength(2);
  });
});

describe('isSealed', () => {
  it('recognises sealed values', async () => {
    expect(isSealed(await inMemorySecrets().seal('x', CONTEXT))).toBe(true);
    expect(isSealed(await inMemorySecrets().seal('', CONTEXT))).toBe(true);
    expect(isSealed('sealed:v1:')).toBe(true);
  });

  it.each([
    ['plaintext', PLAINTEXT],
    ['an empty string', ''],
    ['another version', 'sealed:v2:a:b:c'],
    ['a prefix not at the start', ' sealed:v1:a:b:c'],
    ['upper case', 'SEALED:V1:a:b:c'],
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['an object', { value: 'sealed:v1:a:b:c' }],
    ['a buffer', Buffer.from('sealed:v1:a:b:c')],
  ])('rejects %s', (_name, value) => {
    expect(isSealed(value)).toBe(false);
  });
});

describe('LocalKeyWrapper', () => {
  it.each([0, 16, 31, 33, 64])('refuses a key of %i bytes', (length) => {
    expect(() => new LocalKeyWrapper(randomBytes(length))).toThrow('the local secrets key must be 32 bytes');
  });

  it('wraps 32-byte data keys that only its own key unwraps', async () => {
    const wrapper = new LocalKeyWrapper(randomBytes(32));
    const { plaintext, wrapped } = await wrapper.newDataKey();
    expect(plaintext).toHaveLength(32);
    expect(wrapped.includes(plaintext)).toBe(false);
    expect((await wrapper.unwrap(wrapped)).equals(plaintext)).toBe(true);
    await expect(new LocalKeyWrapper(randomBytes(32)).unwrap(wrapped)).rejects.toThrow();
  });
});

describe('localSecretsKey', () => {
  let dir: string;
  beforeEach(async () => {
    dir = await fs.mkdtemp(join(tmpdir(), 'secrets-test-'));
  });
  afterEach(async () => {
    await fs.rm(dir, { recursive: true, force: true });
  });

  it('creates <dir>/secrets.key (mode 0600) on the first call and returns the same key afterwards', async () => {
    const dataDir = join(dir, 'data', 'nested');
    vi.mocked(fs.writeFile).mockClear();
    const key = await localSecretsKey(dataDir);
    // The spies see the module's own file system calls (so the "no disk" test below means something).
    expect(fs.writeFile).toHaveBeenCalledTimes(1);
    expect(key).toHaveLength(32);
    const file = join(dataDir, SECRETS_KEY_FILE);
    expect(SECRETS_KEY_FILE).toBe('secrets.key');
    const stat = await fs.stat(file);
    expect(stat.mode & 0o777).toBe(0o600);
    expect(Buffer.from((await fs.readFile(file, 'utf8')).trim(), 'base64').equals(key)).toBe(true);

    const again = await localSecretsKey(dataDir);
    expect(again.equals(key)).toBe(true);
    expect((await fs.stat(file)).mode & 0o777).toBe(0o600);
  });

  it.each([
    ['a 16-byte key', randomBytes(16).toString('base64')],
    ['a 33-byte key', randomBytes(33).toString('base64')],
    ['an empty file', ''],
  ])('refuses a file holding %s, naming the file', async (_name, content) => {
    const file = join(dir, SECRETS_KEY_FILE);
    await fs.writeFile(file, content, { mode: 0o600 });
    await expect(localSecretsKey(dir)).rejects.toThrow(`${file} does not hold a 32-byte key`);
    // The bad file is kept (to be restored from a backup), not replaced by a new key.
    expect(await fs.readFile(file, 'utf8')).toBe(content);
  });

  it('gives a 32-byte key in memory when there is no data directory, without touching the disk', async () => {
    vi.mocked(fs.readFile).mockClear();
    vi.mocked(fs.writeFile).mockClear();
    vi.mocked(fs.mkdir).mockClear();
    vi.mocked(fs.chmod).mockClear();
    const key = await localSecretsKey(null);
    expect(key).toHaveLength(32);
    expect((await localSecretsKey(null)).equals(key)).toBe(false);
    expect(fs.readFile).not.toHaveBeenCalled();
    expect(fs.writeFile).not.toHaveBeenCalled();
    expect(fs.mkdir).not.toHaveBeenCalled();
    expect(fs.chmod).not.toHaveBeenCalled();
  });

  it('opens values sealed before a restart with the key from the same file', async () => {
    const before = new EnvelopeSecrets(new LocalKeyWrapper(await localSecretsKey(dir)));
    const values = [
      { context: 'org_1/a', value: PLAINTEXT },
      { context: 'org_2/b', value: 'ünïcødé 🔐' },
      { context: 'org_3/c', value: '' },
    ];
    const sealed = await Promise.all(values.map(({ context, value }) => before.seal(value, context)));

    const after = new EnvelopeSecrets(new LocalKeyWrapper(await localSecretsKey(dir)));
    for (const [i, { context, value }] of values.entries()) expect(await after.open(sealed[i]!, context)).toBe(value);

    // A fresh data directory (a lost key file) does not open them.
    const elsewhere = new EnvelopeSecrets(new LocalKeyWrapper(await localSecretsKey(join(dir, 'other'))));
    await expectDecryptionError(elsewhere.open(sealed[0]!, 'org_1/a'), 'org_1/a', PLAINTEXT);
  });
});

describe('EnvelopeSecrets under concurrent use', () => {
  it('makes one data key for seals that arrive together, and unwraps a data key once for opens that arrive together', async () => {
    const key = randomBytes(32);
    const writer = new CountingWrapper(key);
    const writerSecrets = new EnvelopeSecrets(writer);
    const sealed = await Promise.all(Array.from({ length: 20 }, (_, n) => writerSecrets.seal(`secret-${n}`, 'org_1/a')));
    expect(writer.newDataKeyCalls).toBe(1);

    const reader = new CountingWrapper(key);
    const readerSecrets = new EnvelopeSecrets(reader);
    const opened = await Promise.all(sealed.map((value) => readerSecrets.open(value, 'org_1/a')));
    expect(opened).toEqual(Array.from({ length: 20 }, (_, n) => `secret-${n}`));
    expect(reader.unwrapped).toHaveLength(1);
  });

  it('refuses a sealed value with a fourth part', async () => {
    const secrets = inMemorySecrets();
    const sealed = await secrets.seal('value', 'org_1/a');
    await expect(secrets.open(`${sealed}:junk`, 'org_1/a')).rejects.toBeInstanceOf(SecretDecryptionError);
  });
});
