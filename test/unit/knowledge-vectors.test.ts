import { describe, expect, it } from 'vitest';
import { fuseRanks, RRF_K } from '../../shared/platform/rank-fusion.js';
import { PassageIndex } from '../../shared/knowledge/search/passage-index.js';
import { PassageVectors } from '../../shared/knowledge/search/passage-vectors.js';
import { unitVector } from '../../shared/platform/embeddings.js';
import { parseVectorKey, vectorKey } from '../../shared/platform/vectors.js';

const unit = (...values: number[]) => unitVector(values, values.length);

describe('reciprocal rank fusion', () => {
  it('scores a passage by Σ 1/(K + rank): one found by both lists beats the first of one list', () => {
    const fused = fuseRanks(
      [
        ['a', 'b', 'c'],
        ['d', 'b'],
      ],
      (item) => item,
    );
    expect(fused.map(({ item }) => item)).toEqual(['b', 'a', 'd', 'c']);
    expect(fused[0]?.score).toBeCloseTo(1 / (RRF_K + 2) + 1 / (RRF_K + 2), 10);
    expect(fused[1]?.score).toBeCloseTo(1 / (RRF_K + 1), 10);
  });
});

describe('passage vectors (the embedded vector store)', () => {
  it('finds the nearest passages, nearest first, and none unrelated', () => {
    const vectors = PassageVectors.empty();
    vectors.set('s', 'doc1', [unit(1, 0, 0), unit(0, 1, 0)]);
    vectors.set('s', 'doc2', [unit(1, 1, 0), unit(0, 0, 1)]);
    const near = vectors.nearest('s', unit(1, 0.1, 0), 10);
    expect(near.map((hit) => `${hit.documentId}#${hit.position}`)).toEqual(['doc1#0', 'doc2#0', 'doc1#1']);
    expect(vectors.nearest('s', unit(1, 0, 0), 1)).toHaveLength(1);
    expect(vectors.nearest('other space', unit(1, 0, 0), 10)).toEqual([]);
  });

  it('keeps only one space: a document of another space replaces them all', () => {
    const vectors = PassageVectors.empty();
    vectors.set('model-a', 'doc1', [unit(1, 0)]);
    vectors.set('model-b', 'doc2', [unit(0, 1, 0)]);
    expect(vectors.documentsIn('model-a')).toBe(0);
    expect(vectors.documentsIn('model-b')).toBe(1);
    expect(() => vectors.set('model-b', 'doc3', [unit(1, 0)])).toThrow(/dimensions/);
  });

  it('is stored with the index and read back the same', () => {
    const index = PassageIndex.empty();
    const passages = [0, 1].map((position) => ({ document_id: 'doc1', title: 'T', section: '', text: `passage ${position}`, position }));
    index.add('doc1', passages, { space: 's', vectors: [unit(3, 4), unit(-4, 3)] });
    index.add('doc2', [{ ...(passages[0] as (typeof passages)[0]), document_id: 'doc2' }], { space: 's', vectors: null });
    const loaded = PassageIndex.fromBytes(index.toBytes());
    expect(loaded.vectors.documentsIn('s')).toBe(2);
    const [near] = loaded.vectors.nearest('s', unit(3, 4), 1);
    expect(near).toMatchObject({ documentId: 'doc1', position: 0 });
    expect(near?.similarity).toBeCloseTo(1, 5);
    loaded.remove('doc1');
    expect(loaded.vectors.nearest('s', unit(3, 4), 5)).toEqual([]);
    expect(loaded.passage('doc2', 0)).toMatchObject({ document_id: 'doc2', text: 'passage 0', position: 0 });
  });
});

describe('embedding helpers', () => {
  it('scales a vector to length 1 and refuses a zero, a NaN or a wrong length', () => {
    expect([...unit(3, 4)]).toEqual([expect.closeTo(0.6, 6), expect.closeTo(0.8, 6)]);
    expect(() => unit(0, 0)).toThrow(/zero or invalid/);
    expect(() => unit(Number.NaN, 1)).toThrow(/zero or invalid/);
    expect(() => unitVector([1, 2, 3], 2)).toThrow(/3 dimensions, not 2/);
  });

  it('keys a passage by its document and position, and reads the key back', () => {
    expect(parseVectorKey(vectorKey('kd_a#b', 12))).toEqual({ documentId: 'kd_a#b', position: 12 });
    expect(parseVectorKey('no-position')).toBeUndefined();
    expect(parseVectorKey('#3')).toBeUndefined();
  });
});
