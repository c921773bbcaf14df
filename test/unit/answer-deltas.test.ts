import { describe, expect, it } from 'vitest';
import { AnswerDeltas } from '../../shared/agent/events.js';

/** What the loop stores: each turn's text trimmed, the non-empty ones joined by a blank line. */
const storedAnswer = (turns: string[]) =>
  turns
    .map((turn) => turn.trim())
    .filter(Boolean)
    .join('\n\n');

/** Streams the turns in pieces cut at the given sizes, as a model would. */
function streamed(turns: string[], cut: (turn: number) => number[]): string {
  let out = '';
  const deltas = new AnswerDeltas((delta) => {
    out += delta;
  });
  turns.forEach((turn, index) => {
    deltas.nextTurn();
    let at = 0;
    for (const size of cut(index)) {
      deltas.push(turn.slice(at, at + size));
      at += size;
    }
    if (at < turn.length) deltas.push(turn.slice(at));
  });
  return out;
}

describe('AnswerDeltas', () => {
  it('streams exactly the stored answer, whatever the pieces and the blanks around each turn', () => {
    const cases = [
      ['Hello.'],
      ['  Let me look.  \n', '\n\nFound it:\n\n- one\n- two  '],
      ['', '   ', 'Only the third turn speaks.'],
      ['First.', '', 'Third.'],
      ['a  b', '  c  d  '],
    ];
    for (const turns of cases) {
      for (const size of [1, 2, 3, 7, 100]) {
        expect(streamed(turns, (index) => Array.from({ length: Math.ceil((turns[index]?.length ?? 0) / size) }, () => size))).toBe(
          storedAnswer(turns),
        );
      }
    }
  });

  it('never sends trailing blanks that the stored answer drops', () => {
    const pieces: string[] = [];
    const deltas = new AnswerDeltas((delta) => pieces.push(delta));
    deltas.nextTurn();
    deltas.push('Done. ');
    deltas.push('  ');
    expect(pieces).toEqual(['Done.']);
  });
});
