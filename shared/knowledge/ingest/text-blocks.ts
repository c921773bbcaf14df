import type { Block } from './document.js';

/*
 * Paragraphs of text without markup: a plain text file's, cut at blank lines, and a PDF page's,
 * made of the lines pdf.js found on it (parse-worker.mjs), cut where the space between two lines
 * is more than a line's.
 */

/** The longest first line taken as a plain text file's title: longer, it is a paragraph's start. */
const MAX_TITLE_CHARACTERS = 120;

/** A plain text file's paragraphs (cut at blank lines, each line trimmed) and its title: its first line if short. */
export function readPlainText(text: string): { title?: string; blocks: Block[] } {
  const blocks: Block[] = text
    .replace(/\r\n?/g, '\n')
    .split(/\n[ \t\f\v]*\n/)
    .map((paragraph) =>
      paragraph
        .split('\n')
        .map((line) => line.trim())
        .filter((line) => line.length > 0)
        .join('\n'),
    )
    .filter((paragraph) => paragraph.length > 0)
    .map((paragraph) => ({ kind: 'paragraph', text: paragraph }));
  const firstLine = blocks[0]?.text.split('\n')[0];
  const title = firstLine !== undefined && firstLine.length <= MAX_TITLE_CHARACTERS ? firstLine : undefined;
  return { title, blocks };
}

/** A line of a PDF page as the worker reports it: its text, its baseline's height on the page and its font size. */
interface PdfLine {
  text: string;
  y: number;
  size: number;
}

/** A gap between baselines of more than this many line heights parts two paragraphs. */
const PARAGRAPH_GAP = 1.6;

/**
 * Lines of one paragraph joined: a word hyphenated at a line's end is mended ("informa-" +
 * "tion"), other lines are joined with a space.
 */
function joinLines(lines: string[]): string {
  return lines.reduce((text, line) => (/\p{L}-$/u.test(text) && /^\p{Ll}/u.test(line) ? text.slice(0, -1) + line : `${text} ${line}`));
}

/**
 * A PDF page's paragraphs: consecutive lines belong together unless the gap between their
 * baselines exceeds `PARAGRAPH_GAP` line heights, or the next line is higher on the page (a new
 * column or box).
 */
function paragraphsOfPage(lines: PdfLine[]): string[] {
  const paragraphs: string[] = [];
  let current: string[] = [];
  let previous: PdfLine | undefined;
  for (const line of lines) {
    if (previous) {
      const gap = previous.y - line.y;
      const height = Math.max(previous.size, line.size, 1);
      if (gap > PARAGRAPH_GAP * height || gap < -height / 2) {
        paragraphs.push(joinLines(current));
        current = [];
      }
    }
    current.push(line.text);
    previous = line;
  }
  if (current.length > 0) paragraphs.push(joinLines(current));
  return paragraphs;
}

/** A PDF's paragraphs, each with its page (1-based). */
export function pdfBlocks(pages: PdfLine[][]): Block[] {
  return pages.flatMap((lines, index) => paragraphsOfPage(lines).map((text): Block => ({ kind: 'paragraph', text, page: index + 1 })));
}
