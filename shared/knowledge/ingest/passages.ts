import type { Block, ParsedDocument } from './document.js';

/*
 * A read document cut into passages, the units that knowledge search indexes and quotes. The cut
 * follows the structure: a heading starts a new passage, and each passage knows the headings above
 * it. Paragraphs are packed up to about `targetTokens`; a paragraph longer than `maxTokens` is cut at
 * its sentences' ends (Intl.Segmenter), a sentence still too long at words. Consecutive passages of
 * one section overlap: the end of one is repeated at the start of the next, so a sentence cut
 * between them is found whole in one of them.
 *
 * A token is taken as 4 characters, the usual rule of thumb for English text under the models'
 * tokenizers: close enough to size passages, and free.
 */

/** A passage of a document. */
export interface Passage {
  /** Its place in the document, 0-based. */
  position: number;
  /** The headings above it, outermost first. */
  headings: string[];
  /** Its headings joined with ' › ' ('' when none). */
  section: string;
  text: string;
  /** The page its first paragraph is on, where the document has pages. */
  page?: number;
}

/** Passage sizes, in tokens. */
interface PassageOptions {
  /** The size paragraphs are packed up to (400). */
  targetTokens?: number;
  /** The most a passage holds, its overlap included (500): a longer paragraph is cut. */
  maxTokens?: number;
  /** How much of the passage before is repeated at a passage's start, in the same section (50). */
  overlapTokens?: number;
}

const CHARACTERS_PER_TOKEN = 4;
const SECTION_SEPARATOR = ' › ';
const PARAGRAPH_BREAK = '\n\n';

/** Paragraphs under one heading path. */
interface Section {
  headings: string[];
  paragraphs: Block[];
}

/** A paragraph, or part of one, to pack into passages. */
interface Piece {
  text: string;
  page?: number;
  /** Whether it goes on the paragraph of the piece before it (the part after a cut). */
  continues: boolean;
}

/** The document's paragraphs grouped by heading: a heading ends the section before it and opens its own path. */
function sectionsOf(blocks: Block[]): Section[] {
  const sections: Section[] = [];
  let path: { level: number; text: string }[] = [];
  let current: Section | undefined;
  for (const block of blocks) {
    if (block.kind === 'heading') {
      const level = block.level ?? 1;
      path = [...path.filter((heading) => heading.level < level), { level, text: block.text }];
      current = undefined;
    } else {
      if (!current) {
        current = { headings: path.map((heading) => heading.text), paragraphs: [] };
        sections.push(current);
      }
      current.paragraphs.push(block);
    }
  }
  return sections;
}

/** Items grouped in order into runs whose sizes add up to at most `limit` (an item larger than that is a run of its own). */
function packed<T>(items: T[], sizeOf: (item: T) => number, limit: number): T[][] {
  const runs: T[][] = [];
  let run: T[] = [];
  let size = 0;
  for (const item of items) {
    if (run.length > 0 && size + sizeOf(item) > limit) {
      runs.push(run);
      run = [];
      size = 0;
    }
    run.push(item);
    size += sizeOf(item);
  }
  if (run.length > 0) runs.push(run);
  return runs;
}

const sentences = new Intl.Segmenter('en', { granularity: 'sentence' });

/** A text's parts of at most `limit` characters, cut after whitespace (each part keeps the whitespace that ends it). */
function wordsOf(text: string, limit: number): string[] {
  return text
    .split(/(?<=\s)/)
    .flatMap((word) =>
      Array.from({ length: Math.ceil(word.length / limit) }, (_, index) => word.slice(index * limit, (index + 1) * limit)),
    );
}

/**
 * A paragraph as pieces: itself when it fits in `maxChars`; else cut at sentence ends (a sentence
 * longer than `maxChars` at words) and packed again to `targetChars`.
 */
function piecesOf(paragraph: Block, targetChars: number, maxChars: number): Piece[] {
  if (paragraph.text.length <= maxChars) return [{ text: paragraph.text, page: paragraph.page, continues: false }];
  const units = [...sentences.segment(paragraph.text)].flatMap(({ segment }) =>
    segment.length <= maxChars ? [segment] : wordsOf(segment, targetChars),
  );
  return packed(units, (unit) => unit.length, targetChars)
    .map((run) => run.join('').trim())
    .filter((text) => text.length > 0)
    .map((text, index) => ({ text, page: paragraph.page, continues: index > 0 }));
}

/** The end of a text, at most `chars` long, starting at a word. */
function tailOf(text: string, chars: number): string {
  if (chars <= 0) return '';
  if (text.length <= chars) return text;
  const start = text.length - chars;
  const wordStart = text.slice(start).search(/(?<=\s)\S/);
  return wordStart < 0 ? '' : text.slice(start + wordStart);
}

/** Pieces joined into a passage's text: a paragraph break between paragraphs, a space where a paragraph goes on. */
function joined(pieces: Piece[]): string {
  return pieces.map((piece, index) => (index === 0 ? piece.text : (piece.continues ? ' ' : PARAGRAPH_BREAK) + piece.text)).join('');
}

/**
 * A document's passages, in order: each section (the paragraphs under one heading path) packed on
 * its own. No text, no passage.
 */
export function passagesOf(doc: ParsedDocument, options: PassageOptions = {}): Passage[] {
  const maxChars = Math.max(1, options.maxTokens ?? 500) * CHARACTERS_PER_TOKEN;
  const targetChars = Math.min(Math.max(1, options.targetTokens ?? 400) * CHARACTERS_PER_TOKEN, maxChars);
  const overlapChars = Math.min(Math.max(0, options.overlapTokens ?? 50) * CHARACTERS_PER_TOKEN, Math.floor(targetChars / 2));
  const passages: Passage[] = [];
  for (const { headings, paragraphs } of sectionsOf(doc.blocks)) {
    const pieces = paragraphs.flatMap((paragraph) => piecesOf(paragraph, targetChars, maxChars));
    let previous = '';
    for (const run of packed(pieces, (piece) => piece.text.length + PARAGRAPH_BREAK.length, targetChars)) {
      const content = joined(run);
      const first = run[0];
      const separator = first?.continues ? ' ' : PARAGRAPH_BREAK;
      // The overlap gives way where the passage would pass maxTokens.
      const overlap = tailOf(previous, Math.min(overlapChars, maxChars - content.length - separator.length));
      passages.push({
        position: passages.length,
        headings,
        section: headings.join(SECTION_SEPARATOR),
        text: overlap ? overlap + separator + content : content,
        ...(first?.page === undefined ? {} : { page: first.page }),
      });
      previous = content;
    }
  }
  return passages;
}

/**
 * What a search index reads of a passage (contextual retrieval): the document's title, the
 * passage's heading path and its text, so that a passage that says "it" is still found by what the
 * document and its section are about. A first heading that repeats the title is not said twice.
 */
export function indexedTextOf(title: string, passage: Passage): string {
  const headings = passage.headings[0] === title ? passage.headings.slice(1) : passage.headings;
  const context = [title, headings.join(SECTION_SEPARATOR)].filter((part) => part.length > 0).join('\n');
  return context ? `${context}${PARAGRAPH_BREAK}${passage.text}` : passage.text;
}
