import { describe, expect, it } from 'vitest';
import { DEFAULT_SCRYPT_PARAMS, PasswordHasher } from '../../shared/auth/passwords.js';
import { FAST_SCRYPT } from '../support/context.js';

describe('PasswordHasher', () => {
  it('hashes with the parameters of docs/api-decisions.md by default (N=2^17, r=8, p=1, 16-byte salt, 64-byte key), stored with the hash', async () => {
    const hasher = new PasswordHasher();
    expect(DEFAULT_SCRYPT_PARAMS).toEqual({ N: 131072, r: 8, p: 1, keyLength: 64, saltLength: 16 });
    const hash = await hasher.hash('correct horse');
    const [scheme, N, r, p, salt, key] = hash.split('$');
    expect([scheme, N, r, p]).toEqual(['scrypt', '131072', '8', '1']);
    expect(Buffer.from(salt ?? '', 'base64')).toHaveLength(16);
    expect(Buffer.from(key ?? '', 'base64')).toHaveLength(64);
    expect(await hasher.verify('correct horse', hash)).toBe(true);
    expect(await hasher.verify('correct horsE', hash)).toBe(false);
  });

  it('verifies hashes made with other parameters, so they can be raised later', async () => {
    const old = await new PasswordHasher(FAST_SCRYPT).hash('still valid');
    expect(await new PasswordHasher({ ...FAST_SCRYPT, N: 2 ** 11 }).verify('still valid', old)).toBe(true);
  });

  it('salts every hash', async () => {
    const hasher = new PasswordHasher(FAST_SCRYPT);
    expect(await hasher.hash('same')).not.toBe(await hasher.hash('same'));
  });

  it('answers false for an unknown account and for malformed stored hashes', async () => {
    const hasher = new PasswordHasher(FAST_SCRYPT);
    expect(await hasher.verify('anything', undefined)).toBe(false);
    expect(await hasher.verify('anything', 'plain-text')).toBe(false);
    expect(await hasher.verify('anything', 'scrypt$0$8$1$AAAA$AAAA')).toBe(false);
  });

  it('treats Unicode-equivalent passwords alike (NFKC)', async () => {
    const hasher = new PasswordHasher(FAST_SCRYPT);
    const hash = await hasher.hash('caf\u00e9 au lait');
    expect(await hasher.verify('cafe\u0301 au lait', hash)).toBe(true);
  });
});
