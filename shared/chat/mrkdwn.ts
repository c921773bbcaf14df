/*
 * Text from a model or a tool, made safe for the team-chat platform's markup. The platform reads
 * `<…>` as its own controls: `<!channel>`, `<!here>` and `<!subteam^…>` notify a whole channel or
 * group, `<@U…>` and `<#C…>` mention, `<https://evil.example|your bank>` is a link whose text hides
 * where it goes. Its rule: escape `&`, `<` and `>` as `&amp;`, `&lt;` and `&gt;`, and nothing else.
 * The Markdown of streamed messages (`markdown_text`) is escaped the same way: Markdown reads these
 * entities as the characters, and a `<…>` there must not reach the platform either. Links and
 * mentions the bot means (an authorization link it built) are written by our code, never through
 * this.
 */

/** `text` with `&`, `<` and `>` escaped: shown as written, it can neither mention nor link. */
export function escapeMrkdwn(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
}

/** The entities `escapeMrkdwn` writes. */
const ENTITIES = ['&amp;', '&lt;', '&gt;'] as const;

/**
 * Where escaped text may be cut, at `at` or just before: `at`, or the start of the entity `at`
 * would split (so `&lt;` never reaches the platform as `&l` and `t;`). Only an entity is moved
 * for: other text is cut at `at`.
 */
export function entitySafeCut(escaped: string, at: number): number {
  for (let start = Math.max(0, at - 4); start < at; start += 1) {
    const entity = ENTITIES.find((candidate) => escaped.startsWith(candidate, start));
    if (entity && start + entity.length > at) return start;
  }
  return at;
}
