import { randomBytes } from 'node:crypto';

let lastTime = 0;
let sequence = 0;

/**
 * A new identifier `<prefix>_<time><sequence><random>`: milliseconds (base 36, fixed width), a
 * sequence that orders ids made in the same millisecond by this process, then 8 random bytes.
 * Ids therefore sort by creation, so an id used as a sort key lists items oldest first.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  const time = Math.max(now.getTime(), lastTime);
  sequence = time === lastTime ? sequence + 1 : 0;
  lastTime = time;
  const timePart = time.toString(36).padStart(9, '0');
  const sequencePart = sequence.toString(36).padStart(4, '0');
  return `${prefix}_${timePart}${sequencePart}${randomBytes(8).toString('hex')}`;
}

/**
 * A URL-safe slug of a display name: accents folded, lower case, runs of anything else turned into
 * one `-`, at most 48 characters. Empty when the name has no letter or digit it can keep.
 */
export function slugify(name: string): string {
  return name
    .normalize('NFKD')
    .replace(/\p{Mark}/gu, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 48)
    .replace(/-+$/g, '');
}
