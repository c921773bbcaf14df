import { describe, expect, it } from 'vitest';
import { type Block, indexedTextOf, type ParsedDocument, type Passage, passagesOf } from '../../shared/knowledge/ingest/index.js';

const heading = (level: number, text: string): Block => ({ kind: 'heading', level, text });
const paragraph = (text: string, page?: number): Block =>
  page === undefined ? { kind: 'paragraph', text } : { kind: 'paragraph', text, page };
const documentOf = (blocks: Block[], title?: string): ParsedDocument => ({ title, pages: 1, blocks });

/** A sentence of exactly `chars` characters (ending with a full stop), numbered so that each is different. */
function sentence(number: number, chars: number): string {
  const start = `Sentence ${number} says`;
  return `${start}${' more'.repeat(Math.floor((chars - start.length - 1) / 5))}`.padEnd(chars - 1, 'x').concat('.');
}

const tokens = (text: string) => Math.ceil(text.length / 4);

describe('passagesOf', () => {
  it('gives no passage for an empty document or one of headings only', () => {
    expect(passagesOf(documentOf([]))).toEqual([]);
    expect(passagesOf(documentOf([heading(1, 'Title'), heading(2, 'Empty')]))).toEqual([]);
  });

  it('starts a passage at each heading and gives each the heading path above it', () => {
    const passages = passagesOf(
      documentOf([
        paragraph('Before any heading.'),
        heading(1, 'Handbook'),
        paragraph('Welcome.'),
        heading(2, 'Travel'),
        paragraph('Book early.'),
        heading(3, 'Trains'),
        paragraph('Second class.'),
        heading(2, 'Expenses'),
        paragraph('Claim monthly.'),
        heading(1, 'Appendix'),
        paragraph('Forms.'),
      ]),
    );
    expect(passages.map(({ position, headings, section, text }) => ({ position, headings, section, text }))).toEqual([
      { position: 0, headings: [], section: '', text: 'Before any heading.' },
      { position: 1, headings: ['Handbook'], section: 'Handbook', text: 'Welcome.' },
      { position: 2, headings: ['Handbook', 'Travel'], section: 'Handbook › Travel', text: 'Book early.' },
      { position: 3, headings: ['Handbook', 'Travel', 'Trains'], section: 'Handbook › Travel › Trains', text: 'Second class.' },
      { position: 4, headings: ['Handbook', 'Expenses'], section: 'Handbook › Expenses', text: 'Claim monthly.' },
      { position: 5, headings: ['Appendix'], section: 'Appendix', text: 'Forms.' },
    ]);
  });

  it('packs short paragraphs up to about targetTokens, never splitting one that fits', () => {
    // Ten paragraphs of 120 characters (30 tokens): three fit in 100 tokens with their breaks.
    const paragraphs = Array.from({ length: 10 }, (_, index) => sentence(index, 120));
    const passages = passagesOf(documentOf(paragraphs.map((text) => paragraph(text))), {
      targetTokens: 100,
      maxTokens: 150,
      overlapTokens: 0,
    });
    expect(passages.map((passage) => passage.text)).toEqual([
      paragraphs.slice(0, 3).join('\n\n'),
      paragraphs.slice(3, 6).join('\n\n'),
      paragraphs.slice(6, 9).join('\n\n'),
      paragraphs[9],
    ]);
    expect(passages.map((passage) => passage.position)).toEqual([0, 1, 2, 3]);
  });

  it('splits a paragraph longer than maxTokens at sentence ends', () => {
    const sentences = Array.from({ length: 12 }, (_, index) => sentence(index, 200));
    const long = sentences.join(' ');
    expect(tokens(long)).toBeGreaterThan(500);
    const passages = passagesOf(documentOf([paragraph(long)]), { overlapTokens: 0 });
    // 400 tokens is 1 600 characters: 7 sentences of 200 and their spaces, then the other 5.
    expect(passages.map((passage) => passage.text)).toEqual([sentences.slice(0, 7).join(' '), sentences.slice(7).join(' ')]);
  });

  it('keeps a paragraph between targetTokens and maxTokens whole', () => {
    const text = Array.from({ length: 9 }, (_, index) => sentence(index, 200)).join(' ');
    expect(tokens(text)).toBeGreaterThan(400);
    expect(tokens(text)).toBeLessThanOrEqual(500);
    expect(passagesOf(documentOf([paragraph(text)])).map((passage) => passage.text)).toEqual([text]);
  });

  it('splits a sentence longer than maxTokens at word boundaries, and a word longer than that anywhere', () => {
    const words = Array.from({ length: 600 }, (_, index) => `word${index}`);
    const run = words.join(' ');
    const passages = passagesOf(documentOf([paragraph(run)]), { targetTokens: 100, maxTokens: 120, overlapTokens: 0 });
    expect(passages.length).toBeGreaterThan(1);
    for (const passage of passages) expect(tokens(passage.text)).toBeLessThanOrEqual(100);
    // Cut between words only: no word is broken, and together they are the paragraph.
    expect(passages.flatMap((passage) => passage.text.split(' '))).toEqual(words);
    const blob = 'x'.repeat(2_000);
    const cut = passagesOf(documentOf([paragraph(blob)]), { targetTokens: 100, maxTokens: 120, overlapTokens: 0 });
    expect(cut.map((passage) => passage.text.length)).toEqual([400, 400, 400, 400, 400]);
  });

  it('repeats the end of the passage before at the start of the next, in the same section only, within maxTokens', () => {
    const first = sentence(1, 380);
    const second = sentence(2, 380);
    const third = sentence(3, 380);
    const passages = passagesOf(
      documentOf([heading(1, 'A'), paragraph(first), paragraph(second), paragraph(third), heading(1, 'B'), paragraph('Other section.')]),
      {
        targetTokens: 100,
        maxTokens: 120,
        overlapTokens: 10,
      },
    );
    expect(passages.map((passage) => passage.section)).toEqual(['A', 'A', 'A', 'B']);
    expect(passages[0]?.text).toBe(first);
    const [overlap, rest] = passages[1]?.text.split('\n\n') ?? [];
    expect(rest).toBe(second);
    // About 10 tokens (40 characters) of the end of the passage before, starting at a word.
    expect(first.endsWith(overlap ?? '-')).toBe(true);
    expect(overlap?.length).toBeGreaterThan(30);
    expect(overlap?.length).toBeLessThanOrEqual(40);
    expect(first.at(-(overlap?.length ?? 0) - 1)).toBe(' ');
    expect(passages[2]?.text.endsWith(`\n\n${third}`)).toBe(true);
    expect(passages[3]?.text).toBe('Other section.');
    for (const passage of passages) expect(tokens(passage.text)).toBeLessThanOrEqual(120);
  });

  it('continues a cut paragraph after its overlap with a space, not a paragraph break', () => {
    const sentences = Array.from({ length: 4 }, (_, index) => sentence(index, 300));
    const passages = passagesOf(documentOf([paragraph(sentences.join(' '))]), { targetTokens: 100, maxTokens: 120, overlapTokens: 10 });
    expect(passages).toHaveLength(4);
    expect(passages[1]?.text).toMatch(new RegExp(`^\\S[^\\n]* ${sentences[1]}$`));
  });

  it('gives each passage the page of its first paragraph', () => {
    const doc = documentOf([
      paragraph(sentence(1, 300), 1),
      paragraph(sentence(2, 300), 2),
      paragraph(sentence(3, 300), 2),
      paragraph(sentence(4, 300), 3),
    ]);
    expect(passagesOf(doc, { targetTokens: 100, maxTokens: 120, overlapTokens: 10 }).map((passage) => passage.page)).toEqual([1, 2, 2, 3]);
    // Two paragraphs a passage: the first passage runs from page 1 onto page 2, and is on page 1.
    const packed = passagesOf(doc, { targetTokens: 160, maxTokens: 200, overlapTokens: 10 });
    expect(packed.map((passage) => passage.page)).toEqual([1, 2]);
    expect(packed[0]?.text).toContain(sentence(2, 300));
    expect(passagesOf(documentOf([paragraph('no pages')]))[0]).not.toHaveProperty('page');
  });
});

describe('indexedTextOf', () => {
  const passage = (headings: string[], text: string): Passage => ({ position: 0, headings, section: headings.join(' › '), text });

  it('reads the document title, the heading path and the text', () => {
    expect(indexedTextOf('Staff handbook', passage(['Travel', 'Trains'], 'Book second class.'))).toBe(
      'Staff handbook\nTravel › Trains\n\nBook second class.',
    );
  });

  it('does not repeat a first heading that is the title, and leaves out what is empty', () => {
    expect(indexedTextOf('Handbook', passage(['Handbook', 'Travel'], 'Text.'))).toBe('Handbook\nTravel\n\nText.');
    expect(indexedTextOf('Handbook', passage([], 'Text.'))).toBe('Handbook\n\nText.');
    expect(indexedTextOf('', passage([], 'Text.'))).toBe('Text.');
  });
});
