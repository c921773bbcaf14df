import { randomBytes } from 'node:crypto';

/**
 * A new identifier `<prefix>_<time><random>`: the time part (milliseconds, base 36, fixed width)
 * makes ids sort by creation, so an id used as a sort key lists items oldest first.
 */
export function newId(prefix: string, now: Date = new Date()): string {
  const time = now.getTime().toString(36).padStart(9, '0');
  return `${prefix}_${time}${randomBytes(8).toString('hex')}`;
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
