/*
 * The knowledge reader's worker: runs the parsing libraries (pdf.js through unpdf, mammoth, marked)
 * on an uploaded document in a worker thread, so a hostile document can exhaust only this thread's
 * memory (its `resourceLimits`) and time (it is terminated at the timeout), never the process.
 *
 * How it is found: read-in-worker.ts starts it from `new URL('./parse-worker.mjs', import.meta.url)`,
 * the file beside it. It is plain ESM JavaScript importing only the libraries and Node, so node,
 * tsx (`npm start`) and vitest run it as it is; a bundle (esbuild) builds it as an entry point of
 * its own and places it beside the code that starts it.
 *
 * It is given `workerData` (a job: the kind, the bytes and the limits) and posts plain data back: a
 * PDF's page count as soon as it is known (`{ type: 'pages' }`), then one answer — a PDF's lines per
 * page, the HTML of a Markdown or DOCX document, or a rejection's reason. The messages people read
 * are written by the thread that started it.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { inflateRawSync } from 'node:zlib';

/** A refusal with its reason (read-in-worker.ts names the reasons). */
class Rejected extends Error {
  constructor(reason, extra = {}) {
    super(reason);
    this.reason = reason;
    this.extra = extra;
  }
}

/** A page's text items made lines: a line ends where pdf.js marks one or the baseline moves. */
function linesOf(items) {
  const lines = [];
  let text = '';
  let y;
  let size = 0;
  const endLine = () => {
    const line = text.replace(/\s+/g, ' ').trim();
    if (line) lines.push({ text: line, y, size });
    text = '';
    y = undefined;
    size = 0;
  };
  for (const item of items) {
    if (typeof item.str !== 'string') continue;
    const itemY = item.transform[5];
    const itemSize = Math.hypot(item.transform[2], item.transform[3]) || item.height || 0;
    if (y !== undefined && item.str && Math.abs(itemY - y) > Math.max(size, itemSize, 1) / 2) endLine();
    if (item.str) {
      y ??= itemY;
      text += item.str;
      size = Math.max(size, itemSize);
    }
    if (item.hasEOL) endLine();
  }
  endLine();
  return lines;
}

/** A PDF's title: its information dictionary's, else its XMP metadata's. */
async function titleOf(pdf) {
  const { info, metadata } = await pdf.getMetadata().catch(() => ({}));
  const title = typeof info?.Title === 'string' && info.Title.trim() ? info.Title : metadata?.get('dc:title');
  return typeof title === 'string' && title.trim() ? title.trim() : undefined;
}

/** A PDF's pages as lines. The page count is reported and checked before any page is read. */
async function readPdf({ bytes, maxPages, maxCharacters }) {
  const { getDocumentProxy } = await import('unpdf');
  const pdf = await getDocumentProxy(bytes, { verbosity: 0, isEvalSupported: false, stopAtErrors: false }).catch(() => {
    throw new Rejected('unreadable');
  });
  parentPort.postMessage({ type: 'pages', pages: pdf.numPages });
  if (pdf.numPages > maxPages) throw new Rejected('too_many_pages', { pages: pdf.numPages });
  const title = await titleOf(pdf);
  const pages = [];
  let characters = 0;
  for (let number = 1; number <= pdf.numPages; number++) {
    const page = await pdf.getPage(number);
    const lines = linesOf((await page.getTextContent()).items);
    page.cleanup();
    characters += lines.reduce((sum, line) => sum + line.text.length, 0);
    if (characters > maxCharacters) throw new Rejected('too_much_text');
    pages.push(lines);
  }
  await pdf.destroy();
  return { type: 'pdf', title, pages };
}

/**
 * How many bytes a ZIP entry inflates to, inflating at most `budget` (zlib stops there): the
 * central directory's sizes can lie, this cannot.
 */
function expandedSize(bytes, entry, budget) {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const at = entry.localHeaderOffset;
  if (at + 30 > bytes.length || view.getUint32(at, true) !== 0x04034b50) throw new Rejected('unreadable');
  const start = at + 30 + view.getUint16(at + 26, true) + view.getUint16(at + 28, true);
  const data = bytes.subarray(start, start + entry.compressedSize);
  if (entry.method === 0) {
    if (data.length > budget) throw new Rejected('too_large');
    return data.length;
  }
  if (entry.method !== 8) throw new Rejected('unreadable');
  try {
    return inflateRawSync(data, { maxOutputLength: Math.max(1, budget) }).length;
  } catch (error) {
    throw new Rejected(error?.code === 'ERR_BUFFER_TOO_LARGE' ? 'too_large' : 'unreadable');
  }
}

/** Word's Title style is a level-1 heading too (mammoth's own map has Heading 1 to 6 only): the document's title. */
const STYLE_MAP = ['p.Title => h1:fresh', "p[style-name='Title'] => h1:fresh"];

/** A DOCX as HTML (mammoth keeps headings, lists and tables; images are left out unread). */
async function readDocx({ bytes, entries, maxExpandedBytes }) {
  let expanded = 0;
  for (const entry of entries) expanded += expandedSize(bytes, entry, maxExpandedBytes - expanded);
  const { default: mammoth } = await import('mammoth');
  const noImage = mammoth.images.imgElement(async () => ({ src: '' }));
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const result = await mammoth
    .convertToHtml({ buffer }, { convertImage: noImage, ignoreEmptyParagraphs: true, styleMap: STYLE_MAP })
    .catch(() => {
      throw new Rejected('unreadable');
    });
  return { type: 'html', html: result.value };
}

/** A Markdown document as HTML (marked, GitHub's dialect): links reduced to their text, images left out. */
async function readMarkdown({ bytes }) {
  const { Marked } = await import('marked');
  const marked = new Marked({
    async: false,
    gfm: true,
    renderer: {
      link({ tokens }) {
        return this.parser.parseInline(tokens);
      },
      image() {
        return '';
      },
    },
  });
  return { type: 'html', html: marked.parse(new TextDecoder().decode(bytes)) };
}

const readers = { pdf: readPdf, docx: readDocx, markdown: readMarkdown };

try {
  parentPort.postMessage(await readers[workerData.kind](workerData));
} catch (error) {
  // Anything a library throws on a document (a broken file, a stack overflow on nesting) refuses it.
  parentPort.postMessage(
    error instanceof Rejected ? { type: 'rejected', reason: error.reason, ...error.extra } : { type: 'rejected', reason: 'unreadable' },
  );
}
