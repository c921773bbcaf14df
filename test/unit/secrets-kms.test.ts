import { randomBytes } from 'node:crypto';
import { DecryptCommand, GenerateDataKeyCommand, KMSClient } from '@aws-sdk/client-kms';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeEach, describe, expect, it } from 'vitest';
import { EnvelopeSecrets, SecretDecryptionError } from '../../shared/platform/secrets.js';
import { KmsKeyWrapper } from '../../shared/platform/secrets-kms.js';

const KEY_ID = 'arn:aws:kms:eu-west-1:111122223333:key/test';
const REGION = 'eu-west-1';
const ENCRYPTION_CONTEXT = { purpose: 'workspace-agent-proxy secrets' };

const DATA_KEY = Buffer.alloc(32, 7);
const BLOB = Buffer.from('kms-wrapped-data-key-blob-0001');

const kmsMock = mockClient(KMSClient);
// Its `send` is stubbed by the mock: no request ever leaves the process.
const client = new KMSClient({ region: REGION });

afterAll(() => {
  kmsMock.restore();
});
beforeEach(() => {
  kmsMock.reset();
});

/** KMS for the end-to-end tests: one data key, which Decrypt gives back only for its own blob. */
function mockKms() {
  kmsMock.on(GenerateDataKeyCommand).resolves({ KeyId: KEY_ID, Plaintext: new Uint8Array(DATA_KEY), CiphertextBlob: new Uint8Array(BLOB) });
  kmsMock.on(DecryptCommand).callsFake((input: { CiphertextBlob?: Uint8Array }) => {
    if (!input.CiphertextBlob || !Buffer.from(input.CiphertextBlob).equals(BLOB)) {
      throw Object.assign(new Error('The ciphertext is invalid'), { name: 'InvalidCiphertextException' });
    }
    return { KeyId: KEY_ID, Plaintext: new Uint8Array(DATA_KEY) };
  });
}

const secretsOverKms = () => new EnvelopeSecrets(new KmsKeyWrapper(KEY_ID, REGION, client));

describe('KmsKeyWrapper', () => {
  it('newDataKey asks KMS for an AES-256 data key of the given key, with the encryption context, and returns Buffers', async () => {
    const plaintext = randomBytes(32);
    const blob = randomBytes(184);
    kmsMock
      .on(GenerateDataKeyCommand)
      .resolves({ KeyId: KEY_ID, Plaintext: new Uint8Array(plaintext), CiphertextBlob: new Uint8Array(blob) });

    const dataKey = await new KmsKeyWrapper(KEY_ID, REGION, client).newDataKey();

    const calls = kmsMock.commandCalls(GenerateDataKeyCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({ KeyId: KEY_ID, KeySpec: 'AES_256', EncryptionContext: ENCRYPTION_CONTEXT });
    expect(kmsMock.calls()).toHaveLength(1);
    expect(Buffer.isBuffer(dataKey.plaintext)).toBe(true);
    expect(Buffer.isBuffer(dataKey.wrapped)).toBe(true);
    expect(dataKey.plaintext.equals(plaintext)).toBe(true);
    expect(dataKey.wrapped.equals(blob)).toBe(true);
  });

  it('unwrap asks KMS to decrypt the blob with the same key and encryption context', async () => {
    const plaintext = randomBytes(32);
    const blob = randomBytes(184);
    kmsMock.on(DecryptCommand).resolves({ KeyId: KEY_ID, Plaintext: new Uint8Array(plaintext) });

    const unwrapped = await new KmsKeyWrapper(KEY_ID, REGION, client).unwrap(blob);

    const calls = kmsMock.commandCalls(DecryptCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(Object.keys(input).sort()).toEqual(['CiphertextBlob', 'EncryptionContext', 'KeyId']);
    expect(input.KeyId).toBe(KEY_ID);
    expect(input.EncryptionContext).toEqual(ENCRYPTION_CONTEXT);
    expect(Buffer.from(input.CiphertextBlob!).equals(blob)).toBe(true);
    expect(Buffer.isBuffer(unwrapped)).toBe(true);
    expect(unwrapped.equals(plaintext)).toBe(true);
  });

  it('uses the same encryption context for GenerateDataKey and Decrypt', async () => {
    mockKms();
    const wrapper = new KmsKeyWrapper(KEY_ID, REGION, client);
    const { wrapped } = await wrapper.newDataKey();
    await wrapper.unwrap(wrapped);
    const generated = kmsMock.commandCalls(GenerateDataKeyCommand)[0]!.args[0].input;
    const decrypted = kmsMock.commandCalls(DecryptCommand)[0]!.args[0].input;
    expect(decrypted.EncryptionContext).toEqual(generated.EncryptionContext);
    expect(decrypted.KeyId).toBe(generated.KeyId);
  });

  it.each([
    ['Plaintext', { CiphertextBlob: new Uint8Array(BLOB) }],
    ['CiphertextBlob', { Plaintext: new Uint8Array(DATA_KEY) }],
  ])('newDataKey fails when KMS answers without %s', async (_missing, answer) => {
    kmsMock.on(GenerateDataKeyCommand).resolves(answer);
    await expect(new KmsKeyWrapper(KEY_ID, REGION, client).newDataKey()).rejects.toThrow('KMS returned no data key');
  });

  it('unwrap fails when KMS answers without Plaintext', async () => {
    kmsMock.on(DecryptCommand).resolves({ KeyId: KEY_ID });
    await expect(new KmsKeyWrapper(KEY_ID, REGION, client).unwrap(BLOB)).rejects.toThrow('KMS returned no plaintext');
  });
});

describe('EnvelopeSecrets over KMS', () => {
  it('seals and opens across two instances, the second calling Decrypt once for two opens', async () => {
    mockKms();
    const writer = secretsOverKms();
    const first = await writer.seal('xoxb-first-token', 'org_1/slack');
    const second = await writer.seal('ünïcødé second 🔑', 'org_1/github');
    expect(kmsMock.commandCalls(GenerateDataKeyCommand)).toHaveLength(1);
    expect(first.split(':')[2]).toBe(BLOB.toString('base64url'));

    // The writer opens its own values with the data key it made: no Decrypt.
    expect(await writer.open(first, 'org_1/slack')).toBe('xoxb-first-token');
    expect(kmsMock.commandCalls(DecryptCommand)).toHaveLength(0);

    const reader = secretsOverKms();
    expect(await reader.open(first, 'org_1/slack')).toBe('xoxb-first-token');
    expect(await reader.open(second, 'org_1/github')).toBe('ünïcødé second 🔑');
    const decrypts = kmsMock.commandCalls(DecryptCommand);
    expect(decrypts).toHaveLength(1);
    expect(Buffer.from(decrypts[0]!.args[0].input.CiphertextBlob!).equals(BLOB)).toBe(true);
    expect(kmsMock.commandCalls(GenerateDataKeyCommand)).toHaveLength(1);
  });

  it('does not open a value under another context, even with the data key unwrapped', async () => {
    mockKms();
    const sealed = await secretsOverKms().seal('secret', 'org_1/slack');
    await expect(secretsOverKms().open(sealed, 'org_2/slack')).rejects.toBeInstanceOf(SecretDecryptionError);
  });

  it('passes an outage or a permission error on Decrypt through as it is (not as a corrupted secret), and asks again next time', async () => {
    mockKms();
    const sealed = await secretsOverKms().seal('xoxb-kms-denied-token', 'org_1/slack');
    const denied = Object.assign(new Error('User is not authorized to perform: kms:Decrypt'), {
      name: 'AccessDeniedException',
      $fault: 'client',
    });
    kmsMock.on(DecryptCommand).rejectsOnce(denied);
    const reader = secretsOverKms();
    const error = await reader.open(sealed, 'org_1/slack').catch((thrown: unknown) => thrown);
    expect(error).not.toBeInstanceOf(SecretDecryptionError);
    expect((error as Error).name).toBe('AccessDeniedException');
    expect((error as Error).message).not.toContain('xoxb-kms-denied-token');
    mockKms();
    expect(await reader.open(sealed, 'org_1/slack')).toBe('xoxb-kms-denied-token');
    // The failed unwrap was not cached: the second open asked KMS again.
    expect(kmsMock.commandCalls(DecryptCommand)).toHaveLength(2);
  });

  it('turns KMS refusing the blob (InvalidCiphertextException) into a SecretDecryptionError', async () => {
    mockKms();
    const sealed = await secretsOverKms().seal('xoxb-refused', 'org_1/slack');
    kmsMock
      .on(DecryptCommand)
      .rejects(Object.assign(new Error('invalid ciphertext'), { name: 'InvalidCiphertextException', $fault: 'client' }));
    const error = await secretsOverKms()
      .open(sealed, 'org_1/slack')
      .catch((thrown: unknown) => thrown);
    expect(error).toBeInstanceOf(SecretDecryptionError);
    expect((error as Error).message).toContain('org_1/slack');
  });

  it('does not open a value whose wrapped data key was altered (KMS refuses the blob)', async () => {
    mockKms();
    const sealed = await secretsOverKms().seal('secret', 'org_1/slack');
    const [wrapped, iv, body] = sealed.slice('sealed:v1:'.length).split(':');
    const altered = `sealed:v1:${(wrapped![0] === 'A' ? 'B' : 'A') + wrapped!.slice(1)}:${iv}:${body}`;
    await expect(secretsOverKms().open(altered, 'org_1/slack')).rejects.toBeInstanceOf(SecretDecryptionError);
    expect(kmsMock.commandCalls(DecryptCommand)).toHaveLength(1);
  });

  it('fails to seal when GenerateDataKey answers without Plaintext', async () => {
    kmsMock.on(GenerateDataKeyCommand).resolves({ KeyId: KEY_ID, CiphertextBlob: new Uint8Array(BLOB) });
    await expect(secretsOverKms().seal('secret', 'org_1/slack')).rejects.toThrow('KMS returned no data key');
  });

  it('fails to seal when GenerateDataKey is refused', async () => {
    kmsMock.on(GenerateDataKeyCommand).rejects(Object.assign(new Error('The key is disabled'), { name: 'DisabledException' }));
    await expect(secretsOverKms().seal('secret', 'org_1/slack')).rejects.toThrow('The key is disabled');
  });
});
