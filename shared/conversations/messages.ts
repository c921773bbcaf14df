import type { Item } from '../platform/table.js';
import { MESSAGE_PREFIX, messageSortKey } from './entities.js';

/*
 * How messages are stored. A query that asks and answers in one go writes its question and its
 * answer as one item, under the question's number (`MSG#<seq>`), the answer's attributes in
 * `answer` and its rating counters beside it (`answer_feedback_up`, `answer_feedback_down`): one
 * write unit where two items took two (docs/capacity.md). Everything else is one item per message:
 * a pair past 300 000 bytes (query/persist-items.ts: an item holds 400 KB at most), a question that got no answer, an answer given after an approval (its question was stored when
 * the query paused), a new conversation's starting history, and every message stored before.
 * Readers see single messages only, through `expandMessages`.
 */

/** The attributes of a question and its answer stored as one item (`pairItem`). */
interface Pair {
  answer: Item;
  answer_feedback_up?: number;
  answer_feedback_down?: number;
}

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null;

/** A question item and its answer's, as one item: the question's key and attributes, the answer's beside them. */
export function pairItem(question: Item, answer: Item): Item {
  const { pk: _pk, sk: _sk, ...answered } = answer;
  return { ...question, answer: answered };
}

/**
 * The items of a conversation's partition with every stored pair (`pairItem`) as its two messages,
 * in place: the question's item, then its answer's (under its own number's key). Other items as
 * they are.
 */
export function expandMessages(items: Item[]): Item[] {
  return items.flatMap((item) => {
    if (!item.sk.startsWith(MESSAGE_PREFIX) || !isRecord(item.answer)) return [item];
    const { answer, answer_feedback_up, answer_feedback_down, ...question } = item as Item & Pair;
    const seq = Number(answer.seq);
    return [
      question,
      {
        ...answer,
        pk: item.pk,
        sk: messageSortKey(seq),
        ...(answer_feedback_up === undefined ? {} : { feedback_up: answer_feedback_up }),
        ...(answer_feedback_down === undefined ? {} : { feedback_down: answer_feedback_down }),
      },
    ];
  });
}

/**
 * Where the answer numbered `seq` is stored, of the two items that may hold it: its own
 * (`single`), or the one before, a pair whose answer it is. Answers the item, the message it holds,
 * and the prefix of that message's rating counters in the item; undefined when neither holds it.
 */
export function storedMessage(single: Item | undefined, before: Item | undefined, seq: number) {
  if (single) return { item: single, message: single, counters: '' as const };
  if (before && isRecord(before.answer) && Number(before.answer.seq) === seq) {
    return { item: before, message: before.answer as Item, counters: 'answer_' as const };
  }
  return undefined;
}
