import type { Block, ParsedDocument } from './document.js';
import { readHtml } from './html-blocks.js';
import type { DocumentKind } from './kinds.js';
import { startsAsPdf } from './kinds.js';
import { readInWorker, type WorkerAnswer } from './read-in-worker.js';
import { DocumentRejectedError, tooManyPages, tooMuchText } from './rejected.js';
import { pdfBlocks, readPlainText } from './text-blocks.js';
import { type ZipEntry, zipEntriesOf } from './zip-directory.js';

/*
 * Reads an uploaded document into its title, page count and blocks of text (document.ts). Plain
 * text and HTML are read here, in slices between turns of the event loop; PDF, DOCX and Markdown
 * go through their libraries in a worker thread with a memory limit (read-in-worker.ts), because
 * those libraries are large and their input is a stranger's. Every way a document can be refused is
 * a DocumentRejectedError with a reason a person can read.
 */

export type { Block, ParsedDocument } from './document.js';
export { DocumentRejectedError } from './rejected.js';

/** Limits of one reading; each has a default (`DEFAULT_LIMITS`). */
interface ParseOptions {
  /** How long reading may take, in ms; the worker is terminated then. */
  timeoutMs?: number;
  /** The most pages of a PDF that are read: a PDF with more is refused before any page is read. */
  maxPages?: number;
  /**
   * The most characters of text: a document with more is refused as soon as its reader passes the
   * limit, rather than cut short, so that a knowledge document is never silently half there.
   */
  maxCharacters?: number;
}

const DEFAULT_LIMITS: Required<ParseOptions> = { timeoutMs: 30_000, maxPages: 2_000, maxCharacters: 5_000_000 };

/** The largest upload read, of any kind (a cheap check before anything else). */
const MAX_DOCUMENT_BYTES = 100 * 1024 * 1024;
/** The most a DOCX may inflate to, all its parts together: declared, and again when inflated in the worker. */
const MAX_DOCX_EXPANDED_BYTES = 100 * 1024 * 1024;
/**
 * A DOCX that declares more than this many times its size, beyond 10 MB inflated, is a zip bomb:
 * Word's XML compresses some 5 to 20 times, deflate at most about 1 000.
 */
const MAX_DOCX_RATIO = 100;
const RATIO_CHECKED_FROM = 10 * 1024 * 1024;
/** UTF-8 takes at most 4 bytes a character: text or Markdown of more bytes than this times the limit has too much text. */
const MAX_BYTES_PER_CHARACTER = 4;

const MB = 1024 * 1024;

/**
 * A DOCX's parts, as its central directory declares them, checked before any is inflated: it has a
 * `word/document.xml`, and what it declares is within `MAX_DOCX_EXPANDED_BYTES` and `MAX_DOCX_RATIO`.
 */
function docxEntriesOf(bytes: Uint8Array): ZipEntry[] {
  const entries = zipEntriesOf(bytes);
  if (!entries?.some((entry) => entry.name === 'word/document.xml')) throw new DocumentRejectedError('unreadable', 'not a DOCX');
  const declared = entries.reduce((sum, entry) => sum + entry.uncompressedSize, 0);
  if (declared > MAX_DOCX_EXPANDED_BYTES) {
    throw new DocumentRejectedError('too_large', `the DOCX expands beyond ${MAX_DOCX_EXPANDED_BYTES / MB} MB`);
  }
  if (declared > RATIO_CHECKED_FROM && declared > MAX_DOCX_RATIO * bytes.length) {
    throw new DocumentRejectedError(
      'too_large',
      `the DOCX expands ${Math.round(declared / bytes.length)} times its size; at most ${MAX_DOCX_RATIO} times is read`,
    );
  }
  return entries;
}

/** A document's title from its blocks: its first heading of `level` (or of any level). */
function firstHeading(blocks: Block[], level?: number): string | undefined {
  return blocks.find((block) => block.kind === 'heading' && (level === undefined || block.level === level))?.text;
}

/** A PDF read in the worker: its page count checked as soon as it is known, then its lines made paragraphs. */
async function readPdf(bytes: Uint8Array, limits: Required<ParseOptions>): Promise<ParsedDocument> {
  if (!startsAsPdf(bytes)) throw new DocumentRejectedError('unreadable', 'not a PDF');
  let pages = 0;
  const checkPages = (count: number) => {
    pages = count;
    if (count > limits.maxPages) throw tooManyPages(count, limits.maxPages);
  };
  const answer = await readInWorker(
    { kind: 'pdf', bytes, maxPages: limits.maxPages, maxCharacters: limits.maxCharacters },
    limits.timeoutMs,
    checkPages,
  );
  if (answer.type !== 'pdf') throw rejectionOf(answer, 'PDF', limits);
  // The page count the worker reported, checked again against what it read.
  checkPages(Math.max(pages, answer.pages.length));
  return { title: answer.title, pages: answer.pages.length, blocks: pdfBlocks(answer.pages) };
}

/** The HTML of a Markdown document or a DOCX, made in the worker, read into blocks here. */
async function readThroughHtml(kind: 'markdown' | 'docx', bytes: Uint8Array, limits: Required<ParseOptions>, started: number) {
  const job = kind === 'docx' ? { kind, bytes, entries: docxEntriesOf(bytes), maxExpandedBytes: MAX_DOCX_EXPANDED_BYTES } : { kind, bytes };
  const answer = await readInWorker(job, limits.timeoutMs);
  if (answer.type !== 'html') throw rejectionOf(answer, kind === 'docx' ? 'DOCX' : 'Markdown document', limits);
  const { blocks } = await readHtml(answer.html, { ...limits, deadline: started + limits.timeoutMs });
  // Markdown's title is its first level-1 heading; a DOCX's, its first heading (Word's Title style is read as a level-1 heading).
  return { title: kind === 'docx' ? firstHeading(blocks) : firstHeading(blocks, 1), pages: 1, blocks };
}

/** The error for a worker's answer that is not the one expected: its rejection, in words. */
function rejectionOf(answer: WorkerAnswer, name: string, limits: Required<ParseOptions>): DocumentRejectedError {
  if (answer.type !== 'rejected') return new DocumentRejectedError('crashed', `the ${name}'s reader answered with a ${answer.type} result`);
  if (answer.reason === 'too_many_pages') return tooManyPages(answer.pages ?? limits.maxPages + 1, limits.maxPages);
  if (answer.reason === 'too_much_text') return tooMuchText(limits.maxCharacters);
  if (answer.reason === 'too_large')
    return new DocumentRejectedError('too_large', `the ${name} expands beyond ${MAX_DOCX_EXPANDED_BYTES / MB} MB`);
  return new DocumentRejectedError('unreadable', `not a readable ${name}`);
}

/**
 * Reads a document of a kind `kindOf` gave into its title, page count and blocks. Refuses with a
 * DocumentRejectedError a document over `MAX_DOCUMENT_BYTES`, over `maxPages` or `maxCharacters`,
 * that takes longer than `timeoutMs`, that its reader cannot read or that exhausts its reader's
 * memory. The defaults: 30 s, 2 000 pages, 5 000 000 characters.
 */
export async function parseDocument(bytes: Uint8Array, kind: DocumentKind, options: ParseOptions = {}): Promise<ParsedDocument> {
  const limits = { ...DEFAULT_LIMITS, ...options };
  const started = performance.now();
  if (bytes.length > MAX_DOCUMENT_BYTES)
    throw new DocumentRejectedError('too_large', `the document is larger than ${MAX_DOCUMENT_BYTES / MB} MB`);
  if ((kind === 'text' || kind === 'markdown') && bytes.length > MAX_BYTES_PER_CHARACTER * limits.maxCharacters)
    throw tooMuchText(limits.maxCharacters);
  switch (kind) {
    case 'pdf':
      return readPdf(bytes, limits);
    case 'markdown':
    case 'docx':
      return readThroughHtml(kind, bytes, limits, started);
    case 'html': {
      const { titleElement, blocks } = await readHtml(bytes, { ...limits, deadline: started + limits.timeoutMs });
      return { title: titleElement ?? firstHeading(blocks, 1), pages: 1, blocks };
    }
    case 'text': {
      const text = new TextDecoder().decode(bytes);
      const { title, blocks } = readPlainText(text);
      if (blocks.reduce((sum, block) => sum + block.text.length, 0) > limits.maxCharacters) throw tooMuchText(limits.maxCharacters);
      return { title, pages: 1, blocks };
    }
  }
}
