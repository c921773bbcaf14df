import { describe, expect, it } from 'vitest';
import { feedbackTerms } from '../../shared/knowledge/search/feedback.js';
import { PassageIndex, type StoredPassage } from '../../shared/knowledge/search/passage-index.js';

/*
 * Pseudo-relevance feedback: a question is searched again with the words shared by the passages it
 * finds first, so a passage that says the same thing in other words is found too.
 */

const TOPICS = ['gardening', 'sailing', 'astronomy', 'baking', 'chess', 'cycling', 'pottery', 'knitting', 'fishing', 'painting'];

/** `count` passages on unrelated topics, each a document of its own. */
function filler(count: number): [string, StoredPassage[]][] {
  return Array.from({ length: count }, (_, n) => {
    const topic = TOPICS[n % TOPICS.length]!;
    const id = `filler-${n}`;
    const text = `Notes ${n} about ${topic}: ${topic} clubs meet weekly, and beginners learn ${topic} from volunteers number ${n}.`;
    return [id, [{ document_id: id, title: `${topic} ${n}`, section: '', text, position: 0 }]];
  });
}

const statinPassages: [string, StoredPassage[]][] = [1, 2, 3].map((n) => [
  `statins-${n}`,
  [
    {
      document_id: `statins-${n}`,
      title: `Statin trial ${n}`,
      section: '',
      text: 'Statin therapy lowers LDL cholesterol and reduces cardiovascular events in the trial population.',
      position: 0,
    },
  ],
]);

/** Says what the statin passages say, without the word "statin". */
const synonym: [string, StoredPassage[]] = [
  'cholesterol',
  [
    {
      document_id: 'cholesterol',
      title: 'Lowering cholesterol',
      section: '',
      text: 'Drugs that lower LDL cholesterol reduce cardiovascular events.',
      position: 0,
    },
  ],
];

function indexOf(documents: [string, StoredPassage[]][]): PassageIndex {
  const index = PassageIndex.empty();
  for (const [id, passages] of documents) index.add(id, passages);
  return index;
}

describe('knowledge search feedback', () => {
  it('finds a passage that answers in other words, once the index is large enough', () => {
    const large = indexOf([...filler(250), ...statinPassages, synonym]);
    const found = large.query('statin', 10).map((passage) => passage.document_id);
    expect(found.slice(0, 3).sort()).toEqual(['statins-1', 'statins-2', 'statins-3']);
    // Found next, before any passage that shares only a number with the first ones.
    expect(found[3]).toBe('cholesterol');
  });

  it('searches a small index by the question alone', () => {
    const small = indexOf([...filler(20), ...statinPassages, synonym]);
    const found = small.query('statin', 10).map((passage) => passage.document_id);
    expect(found.sort()).toEqual(['statins-1', 'statins-2', 'statins-3']);
  });

  it('widens the question in a large index too, with rare words only', () => {
    const huge = indexOf([...filler(20_000), ...statinPassages, synonym]);
    const found = huge.query('statin', 10).map((passage) => passage.document_id);
    expect(found.slice(0, 3).sort()).toEqual(['statins-1', 'statins-2', 'statins-3']);
    // Found next, ahead of the filler passages that share a word with the statin ones.
    expect(found[3]).toBe('cholesterol');
  });

  it('keeps its count of passages per word as documents come and go, as a stored index counts it', () => {
    const index = indexOf([...filler(250), ...statinPassages]);
    expect(index.passagesWith('statin')).toBe(3);
    expect(index.passagesWith('garden')).toBe(25);
    index.remove('statins-1');
    index.remove('statins-2');
    index.add('cholesterol', synonym[1]);
    index.add('filler-0', [{ document_id: 'filler-0', title: 'Replaced', section: '', text: 'Nothing about it now.', position: 0 }]);
    const loaded = PassageIndex.fromBytes(index.toBytes());
    for (const [term, count] of [
      ['statin', 1],
      ['cholesterol', 2],
      ['garden', 24],
      ['note', 249],
      ['noth', 1],
      ['trial', 1],
    ] as const) {
      expect([term, index.passagesWith(term)]).toEqual([term, count]);
      expect([term, loaded.passagesWith(term)]).toEqual([term, count]);
    }
    // "statin" is now rare enough and "cholesterol" is found through the last statin passage.
    const found = index.query('statin', 10).map((passage) => passage.document_id);
    expect(found.slice(0, 2)).toEqual(['statins-3', 'cholesterol']);
    expect(found).not.toContain('statins-1');
  });

  it('takes the words the first passages share most, weighted by their scores and rarity, leaving out the question, function words and common words', () => {
    const terms = feedbackTerms(
      [
        { score: 3, title: 'Statin trial', section: '', text: 'Statins lower cholesterol; cholesterol falls.' },
        { score: 1, title: 'Other', section: '', text: 'Weather is mild.' },
      ],
      new Set(['statin']),
      { passages: 5_000, passagesWith: (term) => (term === 'trial' ? 2_000 : 10) },
    );
    expect(terms[0]).toBe('cholesterol');
    expect(terms).not.toContain('statin');
    expect(terms).not.toContain('is');
    expect(terms).toContain('weather');
    // Held by more passages than the feedback searches again.
    expect(terms).not.toContain('trial');
  });

  it('adds nothing when nothing was found', () => {
    expect(feedbackTerms([], new Set(['statin']), { passages: 5_000, passagesWith: () => 1 })).toEqual([]);
  });
});
