/**
 * Readers for attributes of stored items, whose shape the type system cannot vouch for: an item
 * written by an older version may lack a field. Each falls back instead of trusting a cast.
 */
export const str = (value: unknown, fallback = ''): string => (typeof value === 'string' ? value : fallback);
export const strOrNull = (value: unknown): string | null => (typeof value === 'string' ? value : null);
export const num = (value: unknown): number => (typeof value === 'number' ? value : 0);
export const numOrNull = (value: unknown): number | null => (typeof value === 'number' ? value : null);
export const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : [];
