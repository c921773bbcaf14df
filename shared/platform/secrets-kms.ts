import type { DecryptCommandOutput, KMSClient } from '@aws-sdk/client-kms';
import { once } from './once.js';
import { type KeyWrapper, WrongKeyError } from './secrets.js';

/** KMS's answers that mean the blob is not one of this key's (or was altered); other errors are outages or permissions. */
const REFUSALS = new Set(['InvalidCiphertextException', 'IncorrectKeyException']);

/** What a data key is for, checked by KMS on Decrypt (and written to CloudTrail with each use). */
const ENCRYPTION_CONTEXT = { purpose: 'workspace-agent-proxy secrets' };

/**
 * Data keys from a KMS key of the stack (envelope encryption): GenerateDataKey makes one,
 * Decrypt unwraps a stored one. The SDK client is loaded on first use: most requests open no secret.
 */
export class KmsKeyWrapper implements KeyWrapper {
  /** The KMS client and its commands, loaded on first use. */
  private readonly sdk = once(() =>
    import('@aws-sdk/client-kms').then((sdk) => ({ sdk, kms: this.given ?? new sdk.KMSClient({ region: this.region }) })),
  );

  constructor(
    private readonly keyId: string,
    private readonly region: string,
    /** A client to use instead of a new one (tests). */
    private readonly given?: KMSClient,
  ) {}

  async newDataKey() {
    const { kms, sdk } = await this.sdk();
    const result = await kms.send(
      new sdk.GenerateDataKeyCommand({ KeyId: this.keyId, KeySpec: 'AES_256', EncryptionContext: ENCRYPTION_CONTEXT }),
    );
    if (!result.Plaintext || !result.CiphertextBlob) throw new Error('KMS returned no data key');
    return { plaintext: Buffer.from(result.Plaintext), wrapped: Buffer.from(result.CiphertextBlob) };
  }

  async unwrap(wrapped: Buffer): Promise<Buffer> {
    const { kms, sdk } = await this.sdk();
    let result: DecryptCommandOutput;
    try {
      result = await kms.send(
        new sdk.DecryptCommand({ KeyId: this.keyId, CiphertextBlob: wrapped, EncryptionContext: ENCRYPTION_CONTEXT }),
      );
    } catch (error) {
      if (error instanceof Error && REFUSALS.has(error.name)) throw new WrongKeyError({ cause: error });
      throw error;
    }
    if (!result.Plaintext) throw new Error('KMS returned no plaintext');
    return Buffer.from(result.Plaintext);
  }
}
