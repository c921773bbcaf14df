/** Primary key of every item in the single table. */
export interface Key {
  pk: string;
  sk: string;
}

/**
 * Sort keys ordered by time, which the entries of several domains share (index entries, the audit
 * log, knowledge gaps, guardrail violations, the job ledger's pending jobs). Every item's own keys
 * are beside its entity, in its domain's `entities.ts` (docs/data-model.md). Changing one changes
 * stored data, so each stays as `docs/data-model.md` shows it.
 */
export const keys = {
  /** `<ISO time>#<id>`: entries listed by time. */
  timeOrdered: (at: string, id: string) => `${at}#${id}`,
  /**
   * A sort-key bound after every key starting with `<at>#` ('~' sorts after '#'): `lte` takes all
   * entries up to and including `at`, `gte` all entries after it.
   */
  afterTime: (at: string) => `${at}~`,
};
