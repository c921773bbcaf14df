import { describe, expect, it } from 'vitest';
import { newId, slugify } from '../../shared/platform/ids.js';

describe('slugify', () => {
  it.each([
    ['Customer Support', 'customer-support'],
    ['  Café  Öps  ', 'cafe-ops'],
    ['ACME/Rockets & Co.', 'acme-rockets-co'],
    ['---', ''],
    ['日本語', ''],
    ['emoji 🚀 team', 'emoji-team'],
    ['a'.repeat(60), 'a'.repeat(48)],
    [`${'a'.repeat(47)} b`, 'a'.repeat(47)],
  ])('%j → %j', (name, slug) => {
    expect(slugify(name)).toBe(slug);
  });
});

describe('newId', () => {
  it('prefixes ids and sorts them by creation time', () => {
    const early = newId('ws', new Date('2026-01-01T00:00:00Z'));
    const late = newId('ws', new Date('2026-06-01T00:00:00Z'));
    expect(early).toMatch(/^ws_[0-9a-z]{13}[0-9a-f]{16}$/);
    expect(early < late).toBe(true);
    expect(newId('ws')).not.toBe(newId('ws'));
  });
});

describe('newId within one millisecond', () => {
  it('keeps creation order for ids made at the same instant', () => {
    const instant = new Date('2026-11-22T10:00:00Z');
    const ids = Array.from({ length: 50 }, () => newId('usr', instant));
    expect([...ids].sort()).toEqual(ids);
  });
});
