import { createHmac, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps.js';
import { UnauthorizedError, ValidationError } from '../platform/errors.js';
import { openSecrets, type RoutineItem } from './store.js';

/*
 * A webhook delivery's signature (CONTRACT.md, "Routines"): `X-Signature-256: sha256=<hex>` the
 * HMAC-SHA256, with the routine's secret, of `<X-Timestamp>.<raw body>`, the timestamp (Unix
 * seconds) within 5 minutes of now, the delivery named by `X-Delivery-Id`; or GitHub's form,
 * `X-Hub-Signature-256` over the raw body alone with `X-GitHub-Delivery` (GitHub signs no time: a
 * replay of it is caught by its delivery id, remembered 24 hours). Compared in constant time; for
 * a while after a rotation that keeps the old secret, with either secret.
 */

/** How far a delivery's timestamp may be from now, either way. */
export const MAX_CLOCK_SKEW_SECONDS = 300;

const HEX_SHA256 = /^sha256=([0-9a-f]{64})$/i;
const DELIVERY_ID = /^[\x21-\x7e]{1,200}$/;

/**
 * Whether `given` (`sha256=<hex>`) is the HMAC of `signed` with one of `secrets` (the routine's, and
 * one a rotation keeps for a while): each compared in constant time, all of them whichever matches,
 * whatever the given value is.
 */
function matches(secrets: string[], signed: Buffer, given: string | undefined): boolean {
  const hex = HEX_SHA256.exec(given?.trim() ?? '')?.[1];
  const received = Buffer.from(hex ?? '0'.repeat(64), 'hex');
  const results = secrets.map((secret) => timingSafeEqual(createHmac('sha256', secret).update(signed).digest(), received));
  return results.includes(true) && hex !== undefined;
}

const unsigned = () => new UnauthorizedError('missing or bad signature');

/**
 * Checks a delivery's signature with the routine's secret; answers its delivery id.
 * @throws UnauthorizedError (401) for a missing or wrong signature, or a timestamp too old or too new
 * @throws ValidationError (400) for a signed delivery without a usable delivery id
 */
export async function verifySignature(
  deps: Pick<Deps, 'secrets' | 'clock'>,
  routine: RoutineItem,
  raw: Buffer,
  header: (name: string) => string | undefined,
): Promise<string> {
  const secrets = await openSecrets(deps, routine);
  if (secrets.length === 0) throw unsigned();
  const ours = header('x-signature-256');
  let deliveryId: string | undefined;
  if (ours !== undefined) {
    const timestamp = header('x-timestamp') ?? '';
    if (!/^\d{1,12}$/.test(timestamp)) throw new UnauthorizedError('missing or bad X-Timestamp (Unix seconds)');
    const skew = Math.abs(deps.clock.now().getTime() / 1000 - Number(timestamp));
    if (!matches(secrets, Buffer.concat([Buffer.from(`${timestamp}.`), raw]), ours)) throw unsigned();
    if (skew > MAX_CLOCK_SKEW_SECONDS) throw new UnauthorizedError(`X-Timestamp is more than ${MAX_CLOCK_SKEW_SECONDS} s from now`);
    deliveryId = header('x-delivery-id');
  } else {
    if (!matches(secrets, raw, header('x-hub-signature-256'))) throw unsigned();
    deliveryId = header('x-github-delivery');
  }
  if (!deliveryId || !DELIVERY_ID.test(deliveryId)) {
    throw new ValidationError('a delivery id is needed', [
      { path: 'X-Delivery-Id', message: 'must be 1–200 printable characters (X-GitHub-Delivery for GitHub)' },
    ]);
  }
  return deliveryId;
}
