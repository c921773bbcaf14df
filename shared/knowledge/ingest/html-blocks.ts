import { setImmediate as nextTurn } from 'node:timers/promises';
import { Parser } from 'htmlparser2';
import type { Block } from './document.js';
import { tooMuchText, tooSlow } from './rejected.js';

/*
 * The text of an HTML document as headings and paragraphs: an uploaded HTML page, and the HTML that
 * Markdown and DOCX documents are turned into (parse-worker.mjs), so the three keep their headings
 * alike. htmlparser2 reads the markup (a forgiving, linear-time tokenizer that decodes entities);
 * this module only says which elements are headings, paragraphs, lines and cells, and which are
 * never text (scripts, styles, templates, `noscript`, embedded SVG…). Attributes are never read, so
 * inline handlers and links never reach the text. The HTML is fed in slices with a turn of the event
 * loop between them: a large page never holds the process, and the deadline is checked as it goes.
 */

/** Elements whose content is never text a person reads. */
const IGNORED = new Set(['script', 'style', 'template', 'noscript', 'iframe', 'object', 'svg', 'math', 'canvas', 'textarea', 'select']);
const HEADINGS: Readonly<Record<string, number>> = { h1: 1, h2: 2, h3: 3, h4: 4, h5: 5, h6: 6 };
/** Elements whose content is one paragraph (or, inside a list or table, one line). */
const BLOCKS = new Set(
  'p div section article main header footer nav aside blockquote figure figcaption address hr form fieldset legend details summary center caption body li dt dd tr'.split(
    ' ',
  ),
);
/** Lists and tables: their content is one paragraph, an item or row per line. */
const CONTAINERS = new Set(['ul', 'ol', 'dl', 'table', 'menu']);
/** Table cells: `a | b` on their row's line. */
const CELLS = new Set(['td', 'th']);

/** How many characters of HTML are read before the event loop gets a turn. */
const SLICE = 64 * 1024;

/** An HTML document read: its `<title>` (if any) and its blocks. */
interface HtmlText {
  titleElement?: string;
  blocks: Block[];
}

/** Limits of one reading: the most characters of text, and when (`performance.now()`) it must end. */
interface ReadingLimits {
  maxCharacters: number;
  deadline: number;
  /** Says how long the timeout was, for the message. */
  timeoutMs: number;
}

/** Whitespace runs made one space, as a browser shows them (outside `pre`). */
const collapse = (text: string) => text.replace(/\s+/g, ' ');

/** The state of one reading: the block being written and where in the markup the parser is. */
class HtmlReading {
  readonly blocks: Block[] = [];
  title: string | undefined;
  characters = 0;
  private text = '';
  private ignoredDepth = 0;
  private containerDepth = 0;
  private preDepth = 0;
  private keepsSpacing = false;
  private heading: number | undefined;
  private inTitle = false;
  private cellsInRow = 0;
  private cellDepth = 0;

  open(name: string): void {
    if (IGNORED.has(name)) this.ignoredDepth++;
    if (this.ignoredDepth > 0) return;
    if (name === 'title') this.inTitle = true;
    else if (HEADINGS[name] !== undefined) {
      this.end();
      this.heading = HEADINGS[name];
    } else if (name === 'pre') {
      this.breakBlock();
      this.preDepth++;
      this.keepsSpacing = true;
    } else if (CONTAINERS.has(name)) {
      if (this.containerDepth++ === 0) this.end();
      else this.text += '\n';
    } else if (name === 'tr') {
      this.text += '\n';
      this.cellsInRow = 0;
    } else if (CELLS.has(name)) {
      if (this.cellsInRow++ > 0) this.text += ' | ';
      this.cellDepth++;
    } else if (name === 'br') this.text += '\n';
    else if (BLOCKS.has(name)) this.breakBlock();
  }

  close(name: string): void {
    if (IGNORED.has(name)) {
      this.ignoredDepth = Math.max(0, this.ignoredDepth - 1);
      return;
    }
    if (this.ignoredDepth > 0) return;
    if (name === 'title') this.inTitle = false;
    else if (HEADINGS[name] !== undefined) this.end();
    else if (name === 'pre') {
      this.preDepth = Math.max(0, this.preDepth - 1);
      this.breakBlock();
    } else if (CONTAINERS.has(name)) {
      this.containerDepth = Math.max(0, this.containerDepth - 1);
      if (this.containerDepth === 0) this.end();
    } else if (CELLS.has(name)) this.cellDepth = Math.max(0, this.cellDepth - 1);
    else if (BLOCKS.has(name)) this.breakBlock();
  }

  write(text: string): void {
    if (this.ignoredDepth > 0) return;
    if (this.inTitle) this.title = (this.title ?? '') + text;
    else this.text += this.preDepth > 0 ? text : collapse(text);
  }

  /** A block element's edge: a space inside a table cell, a new line inside a list or table, else a new paragraph. */
  private breakBlock(): void {
    if (this.cellDepth > 0) this.text += ' ';
    else if (this.containerDepth > 0) this.text += '\n';
    else this.end();
  }

  /** Ends the block being written, if it has any text. */
  end(): void {
    const lines = this.text.split('\n').map((line) => (this.keepsSpacing ? line.trimEnd() : collapse(line).trim()));
    const text = lines.filter((line) => line.trim().length > 0).join('\n');
    if (text.length > 0) {
      this.blocks.push(
        this.heading === undefined ? { kind: 'paragraph', text } : { kind: 'heading', level: this.heading, text: collapse(text).trim() },
      );
      this.characters += text.length;
    }
    this.text = '';
    this.heading = undefined;
    this.keepsSpacing = this.preDepth > 0;
  }
}

/**
 * The headings and paragraphs of an HTML document (given as text or as UTF-8 bytes) and its
 * `<title>`. Rejects past `maxCharacters` of text or past the deadline.
 */
export async function readHtml(html: string | Uint8Array, limits: ReadingLimits): Promise<HtmlText> {
  const reading = new HtmlReading();
  const parser = new Parser(
    {
      onopentag: (name) => reading.open(name),
      onclosetag: (name) => reading.close(name),
      ontext: (text) => reading.write(text),
    },
    { decodeEntities: true },
  );
  const decoder = new TextDecoder();
  for (let at = 0; at < html.length; at += SLICE) {
    parser.write(typeof html === 'string' ? html.slice(at, at + SLICE) : decoder.decode(html.subarray(at, at + SLICE), { stream: true }));
    checkLimits(reading.characters, limits);
    await nextTurn();
  }
  parser.end();
  reading.end();
  checkLimits(reading.characters, limits);
  const titleElement = reading.title === undefined ? undefined : collapse(reading.title).trim();
  return { titleElement: titleElement || undefined, blocks: reading.blocks };
}

/** Throws when a reading has gone past its text or its time. */
function checkLimits(characters: number, limits: ReadingLimits): void {
  if (characters > limits.maxCharacters) throw tooMuchText(limits.maxCharacters);
  if (performance.now() > limits.deadline) throw tooSlow(limits.timeoutMs);
}
