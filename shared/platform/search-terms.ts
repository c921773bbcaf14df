import { stemmer } from 'stemmer';

/*
 * How full-text search cuts words and reduces them to terms, for every index of the service (tool
 * search: tool-search/tool-index.ts; knowledge: knowledge/search/passage-index.ts), so a word is
 * found the same way in both.
 */

/** Function words that say nothing about what is meant (the question's "how do I", "the"). */
const STOP_WORDS = new Set(
  'a an and are as at be by can could do does for from had has have how i if in into is it its me my of on or our please should so than that the their them then there these they this those to us was we were what when where which who why will with would you your'.split(
    ' ',
  ),
);

/**
 * Words of a text or a name: `createTicket`, `create_ticket`, `create-ticket` and `tickets.create`
 * all cut at the case change or the punctuation, lower-cased.
 */
export function searchWordsOf(text: string): string[] {
  return text
    .replace(/([\p{Ll}\p{N}])(\p{Lu})/gu, '$1 $2')
    .replace(/(\p{Lu}+)(\p{Lu}\p{Ll})/gu, '$1 $2')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((word) => word.length > 0);
}

/** The term a word is indexed and searched as: its Porter stem; none for a function word. */
export function searchTermOf(word: string): string | null {
  return STOP_WORDS.has(word) ? null : stemmer(word);
}
