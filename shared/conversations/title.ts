/** The longest title a conversation keeps of its first question. */
const TITLE_LENGTH = 120;

/**
 * A conversation's title: its first question on one line, cut to `TITLE_LENGTH` characters (an
 * ellipsis marks a cut). Written once, by the write that creates the conversation item.
 */
export function conversationTitle(question: string): string {
  const line = question.replace(/\s+/g, ' ').trim();
  const characters = [...line];
  return characters.length <= TITLE_LENGTH ? line : `${characters.slice(0, TITLE_LENGTH - 1).join('')}…`;
}

/** The first question of a conversation a query starts: the first user message of its history, else the query. */
export function firstQuestion(history: readonly unknown[], query: string): string {
  for (const message of history) {
    if (typeof message !== 'object' || message === null) continue;
    const { role, content } = message as { role?: unknown; content?: unknown };
    if (role === 'user' && typeof content === 'string') return content;
  }
  return query;
}
