import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from 'node:crypto';
import { TooManyRequestsError } from '../platform/errors.js';
import { Slots } from '../platform/slots.js';

/** scrypt cost parameters; stored with each hash so they can be raised later. */
export interface ScryptParams {
  N: number;
  r: number;
  p: number;
  keyLength: number;
  saltLength: number;
}

/** docs/api-decisions.md (Authentication, sessions and roles): N=2^17, r=8, p=1, 16-byte salt, 64-byte key. */
export const DEFAULT_SCRYPT_PARAMS: ScryptParams = { N: 2 ** 17, r: 8, p: 1, keyLength: 64, saltLength: 16 };

function derive(password: string, salt: Buffer, params: Pick<ScryptParams, 'N' | 'r' | 'p' | 'keyLength'>): Promise<Buffer> {
  const options: ScryptOptions = {
    N: params.N,
    r: params.r,
    p: params.p,
    // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is below that for N=2^17.
    maxmem: 256 * params.N * params.r,
  };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize('NFKC'), salt, params.keyLength, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

/** How many hashes run at once, and how many may wait for a turn before the next is refused. */
export interface HashingLimits {
  concurrency: number;
  waiting: number;
}

/**
 * scrypt runs on libuv's thread pool (4 threads), which also serves the session checks (WebCrypto
 * HMAC), DNS look-ups and file reads of every signed-in request. Unbounded, a burst of sign-ins
 * fills the pool and every other request waits behind it (100 parallel logins held a signed-in
 * request for 25 s). Two hashes at a time leave half the pool to everyone else.
 */
const DEFAULT_HASHING_LIMITS: HashingLimits = { concurrency: 2, waiting: 16 };

/**
 * Hashes and verifies passwords. Hash format: `scrypt$N$r$p$<salt b64>$<key b64>`.
 * `verify` against an unknown account runs the same work on a dummy hash, so a login's timing does
 * not tell whether the email exists. At most `limits.concurrency` hashes run at once (see
 * `DEFAULT_HASHING_LIMITS`); a caller past the waiting line gets a 429.
 */
export class PasswordHasher {
  private dummyHash: Promise<string> | undefined;
  private readonly slots: Slots;

  constructor(
    readonly params: ScryptParams = DEFAULT_SCRYPT_PARAMS,
    limits: HashingLimits = DEFAULT_HASHING_LIMITS,
  ) {
    this.slots = new Slots(
      { concurrency: limits.concurrency, waiting: limits.waiting },
      () => new TooManyRequestsError('too many sign-ins at once; try again in a moment', 1),
    );
  }

  async hash(password: string): Promise<string> {
    const salt = randomBytes(this.params.saltLength);
    const key = await this.slots.run(() => derive(password, salt, this.params));
    const { N, r, p } = this.params;
    return ['scrypt', N, r, p, salt.toString('base64'), key.toString('base64')].join('$');
  }

  /** True when `password` matches `stored`; with `stored` undefined, spends the same time and answers false. */
  async verify(password: string, stored: string | undefined): Promise<boolean> {
    // Made on the first login of either kind, so the first unknown-email login is not the slow one.
    if (!this.dummyHash) {
      const made = this.hash('a password nobody has');
      // A refused dummy (too busy) is made again next time rather than kept as a rejection.
      made.catch(() => {
        if (this.dummyHash === made) this.dummyHash = undefined;
      });
      this.dummyHash = made;
    }
    const dummy = await this.dummyHash;
    if (stored === undefined) {
      await this.matches(password, dummy);
      return false;
    }
    return this.matches(password, stored);
  }

  private async matches(password: string, stored: string): Promise<boolean> {
    const parts = stored.split('$');
    if (parts.length !== 6 || parts[0] !== 'scrypt') return false;
    const [N, r, p] = parts.slice(1, 4).map(Number);
    const salt = Buffer.from(parts[4] ?? '', 'base64');
    const expected = Buffer.from(parts[5] ?? '', 'base64');
    if (!N || !r || !p || expected.length === 0) return false;
    const key = await this.slots.run(() => derive(password, salt, { N, r, p, keyLength: expected.length }));
    return timingSafeEqual(key, expected);
  }
}
