import type { Store } from '../platform/store.js';
import { type Item, type Key, unlessConditionFailed } from '../platform/table.js';
import { MESSAGE_PREFIX, messageReplaced, messageSortKey } from './entities.js';

/*
 * How messages are stored. A query that asks and answers in one go writes its question and its
 * answer as one item, under the question's number (`MSG#<seq>`), the answer's attributes in
 * `answer` and its rating counters beside it (`answer_feedback_up`, `answer_feedback_down`): one
 * write unit where two items took two (docs/capacity.md). Everything else is one item per message:
 * a pair past 300 000 bytes (query/persist-items.ts: an item holds 400 KB at most), a question that got no answer, an answer given after an approval (its question was stored when
 * the query paused), a new conversation's starting history, and every message stored before.
 * Readers see single messages only, through `expandMessages`, and the messages still shown through
 * `currentMessages`: a turn replaced by a regenerated answer or an edited question (`replaceTurn`)
 * stays stored, for the audit, and is shown to nobody.
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
        ...(question.replaced === true ? { replaced: true } : {}),
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

/**
 * The messages of a conversation's items that are shown: single messages (`expandMessages`),
 * numbered at most `count` (one numbered past it is a follow-up's being saved, or one a refused
 * follow-up left: agent/query/persist-follow-up.ts), not replaced, oldest first.
 */
export function currentMessages(items: Item[], count = Number.POSITIVE_INFINITY): Item[] {
  return expandMessages(items)
    .filter((item) => item.sk.startsWith(MESSAGE_PREFIX) && item.replaced !== true && !(Number(item.seq) > count))
    .sort((a, b) => Number(a.seq) - Number(b.seq));
}

/** The last question shown and what a regenerate or an edit replaces of it: the items holding it and its answer. */
export interface LastTurn {
  seq: number;
  question: string;
  /** Its answer waits for a tool call's approval: it may not be replaced until that is decided. */
  awaitingApproval: boolean;
  /** The stored items of the question and its answer (one when they are a pair). */
  keys: Key[];
}

/**
 * The last turn of a conversation's items (as read newest first, the latest few), or undefined when
 * nothing was asked; `shown` is what `currentMessages` made of them (read once by the query).
 */
export function lastTurnOf(items: Item[], shown: Item[], count = Number.POSITIVE_INFINITY): LastTurn | undefined {
  const question = shown.findLast((item) => item.role === 'user');
  if (!question) return undefined;
  const seq = Number(question.seq);
  const answered = shown.some((item) => Number(item.seq) > seq && item.role === 'assistant');
  const keys = items
    .filter(
      (item) => item.sk.startsWith(MESSAGE_PREFIX) && item.replaced !== true && Number(item.seq) >= seq && !(Number(item.seq) > count),
    )
    .map((item) => ({ pk: item.pk, sk: item.sk }));
  return { seq, question: String(question.content ?? ''), awaitingApproval: question.awaiting_approval === true && !answered, keys };
}

/** Marks a turn's items replaced (`LastTurn.keys`), once its new question and answer are stored. */
export async function replaceTurn(deps: Store, keys: Key[]): Promise<void> {
  await Promise.all(
    keys.map((key) => {
      const write = messageReplaced(key);
      return unlessConditionFailed(deps.table.update(write.key, write.input), null);
    }),
  );
}
