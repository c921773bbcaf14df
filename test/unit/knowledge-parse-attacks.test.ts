import { randomBytes } from 'node:crypto';
import { deflateRawSync } from 'node:zlib';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { DocumentRejectedError, kindOf, parseDocument } from '../../shared/knowledge/ingest/index.js';

/*
 * Hostile documents: each is refused with a DocumentRejectedError saying why, within its limits,
 * and the process stays responsive meanwhile (a timer keeps firing) and after (a document still
 * reads). The files are written here byte by byte: PDFs with their cross-reference tables, ZIPs
 * with their central directories, so what they declare is exactly what the test says.
 */

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A PDF of numbered objects (object 1 is the catalog), with a correct cross-reference table. */
function pdfOf(objects: string[]): Uint8Array {
  let out = '%PDF-1.7\n';
  const offsets: number[] = [];
  objects.forEach((body, index) => {
    offsets.push(out.length);
    out += `${index + 1} 0 obj\n${body}\nendobj\n`;
  });
  const xref = out.length;
  out += `xref\n0 ${objects.length + 1}\n0000000000 65535 f \n`;
  out += offsets.map((offset) => `${String(offset).padStart(10, '0')} 00000 n \n`).join('');
  out += `trailer\n<< /Size ${objects.length + 1} /Root 1 0 R >>\nstartxref\n${xref}\n%%EOF\n`;
  return utf8(out);
}

const CONTENT = 'BT /F1 12 Tf 72 720 Td (Hello there) Tj ET';

/** Objects 2 to 4 of a one-page PDF: the font, the page's content, the page (its parent is `parent`). */
function pageObjects(parent: number): string[] {
  return [
    '<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>',
    `<< /Length ${CONTENT.length} >>\nstream\n${CONTENT}\nendstream`,
    `<< /Type /Page /Parent ${parent} 0 R /MediaBox [0 0 612 792] /Resources << /Font << /F1 2 0 R >> >> /Contents 3 0 R >>`,
  ];
}

/**
 * A 1.5 KB PDF whose page tree really holds `fanOuts` multiplied pages: each level lists the level
 * below as many times as its fan-out, so every page is the same leaf and every count is true.
 */
function pdfWithPageTree(fanOuts: number[]): Uint8Array {
  const levels: string[] = [];
  let count = 1;
  fanOuts.forEach((fanOut, index) => {
    const id = 5 + index;
    const child = index === 0 ? 4 : id - 1;
    count *= fanOut;
    const parent = index < fanOuts.length - 1 ? `/Parent ${id + 1} 0 R ` : '';
    levels.push(`<< /Type /Pages ${parent}/Kids [${Array(fanOut).fill(`${child} 0 R`).join(' ')}] /Count ${count} >>`);
  });
  return pdfOf([`<< /Type /Catalog /Pages ${4 + fanOuts.length} 0 R >>`, ...pageObjects(5), ...levels]);
}

/** A ZIP entry: its name, its bytes deflated, and the size its headers declare (its real size unless given). */
interface ZipPart {
  name: string;
  deflated: Uint8Array;
  declaredSize: number;
}

const part = (name: string, content: Uint8Array): ZipPart => ({ name, deflated: deflateRawSync(content), declaredSize: content.length });

/** A ZIP of deflated parts (CRCs left 0: no reader here checks them). */
function zipOf(parts: ZipPart[]): Uint8Array {
  const chunks: Uint8Array[] = [];
  const directory: Buffer[] = [];
  let offset = 0;
  for (const { name, deflated, declaredSize } of parts) {
    const nameBytes = Buffer.from(name);
    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(8, 8);
    local.writeUInt32LE(deflated.length, 18);
    local.writeUInt32LE(declaredSize, 22);
    local.writeUInt16LE(nameBytes.length, 26);
    const entry = Buffer.alloc(46);
    entry.writeUInt32LE(0x02014b50, 0);
    entry.writeUInt16LE(20, 4);
    entry.writeUInt16LE(20, 6);
    entry.writeUInt16LE(8, 10);
    entry.writeUInt32LE(deflated.length, 20);
    entry.writeUInt32LE(declaredSize, 24);
    entry.writeUInt16LE(nameBytes.length, 28);
    entry.writeUInt32LE(offset, 42);
    chunks.push(local, nameBytes, deflated);
    directory.push(entry, nameBytes);
    offset += local.length + nameBytes.length + deflated.length;
  }
  const directorySize = directory.reduce((sum, chunk) => sum + chunk.length, 0);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(parts.length, 8);
  end.writeUInt16LE(parts.length, 10);
  end.writeUInt32LE(directorySize, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...chunks, ...directory, end]);
}

const CONTENT_TYPES = part(
  '[Content_Types].xml',
  utf8('<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"/>'),
);

/** A `word/document.xml` of `size` bytes: a paragraph of one character repeated, deflated (about 1 000 to 1). */
function bombDocument(size: number): ZipPart {
  const xml = Buffer.alloc(size, 'a');
  xml.write('<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body><w:p><w:r><w:t>');
  xml.write('</w:t></w:r></w:p></w:body></w:document>', size - 41);
  return { name: 'word/document.xml', deflated: deflateRawSync(xml, { level: 9 }), declaredSize: size };
}

/** What a reading rejects with, and how long it took (ms). */
async function rejectionOf(reading: Promise<unknown>): Promise<{ error: DocumentRejectedError; ms: number }> {
  const started = performance.now();
  const error = await reading.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DocumentRejectedError)) throw new Error(`expected a DocumentRejectedError, got ${String(error)}`);
  return { error, ms: performance.now() - started };
}

/** Counts the ticks of a 5 ms timer: ticks while a document is read show the event loop is free. */
let ticks = 0;
let ticker: NodeJS.Timeout | undefined;
function startTicking(): void {
  ticks = 0;
  ticker = setInterval(() => ticks++, 5);
}
afterEach(async () => {
  clearInterval(ticker);
  // After each attack, the process still reads a document.
  expect((await parseDocument(utf8('# Still here\n\nyes'), 'markdown')).title).toBe('Still here');
});

describe('hostile PDFs', () => {
  it('refuses a page tree of 3 000 000 pages before reading a page', async () => {
    const bytes = pdfWithPageTree([10, 10, 10, 10, 10, 10, 3]);
    expect(bytes.length).toBeLessThan(2_000);
    startTicking();
    const { error, ms } = await rejectionOf(parseDocument(bytes, 'pdf'));
    expect([error.reason, error.message]).toEqual(['too_many_pages', 'the PDF has 3 000 000 pages; at most 2 000 are read']);
    expect(ms).toBeLessThan(10_000);
    expect(ticks).toBeGreaterThan(0);
  });

  it('is terminated at the timeout when the pages it may read take too long', async () => {
    startTicking();
    const { error, ms } = await rejectionOf(
      parseDocument(pdfWithPageTree([10, 10, 10, 10, 10, 10, 3]), 'pdf', { maxPages: 10_000_000, timeoutMs: 1_000 }),
    );
    expect([error.reason, error.message]).toEqual(['too_slow', 'the document took longer than 1 s to read']);
    expect(ms).toBeLessThan(3_000);
    expect(ticks).toBeGreaterThan(50);
  });

  it('does not trust a page count the page tree does not hold (pdf.js counts the pages)', async () => {
    const bytes = pdfOf(['<< /Type /Catalog /Pages 5 0 R >>', ...pageObjects(5), '<< /Type /Pages /Kids [4 0 R] /Count 3000000 >>']);
    expect(await parseDocument(bytes, 'pdf')).toEqual({ pages: 1, blocks: [{ kind: 'paragraph', text: 'Hello there', page: 1 }] });
  });

  it('refuses objects nested 100 000 deep', async () => {
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    const bytes = pdfOf([
      `<< /Type /Catalog /Pages 5 0 R /Deep ${deep} >>`,
      ...pageObjects(5),
      '<< /Type /Pages /Kids [4 0 R] /Count 1 >>',
    ]);
    startTicking();
    const { error, ms } = await rejectionOf(parseDocument(bytes, 'pdf'));
    expect([error.reason, error.message]).toEqual(['unreadable', 'not a readable PDF']);
    expect(ms).toBeLessThan(10_000);
    expect(ticks).toBeGreaterThan(0);
  });
});

describe('hostile DOCX files', () => {
  /** 300 MB of XML, deflated to about 300 KB. */
  let bomb: ZipPart;
  beforeAll(() => {
    bomb = bombDocument(300 * 1024 * 1024);
  });

  it('refuses a zip bomb that declares its size, from the central directory alone', async () => {
    const bytes = zipOf([CONTENT_TYPES, bomb]);
    expect(bytes.length).toBeLessThan(1024 * 1024);
    expect(kindOf(bytes, 'handbook.docx')).toBe('docx');
    // Refused within the same turn of the event loop: no worker was started, nothing was inflated.
    let turned = false;
    setImmediate(() => {
      turned = true;
    });
    const { error } = await rejectionOf(parseDocument(bytes, 'docx'));
    expect([error.reason, error.message]).toEqual(['too_large', 'the DOCX expands beyond 100 MB']);
    expect(turned).toBe(false);
  });

  it('refuses a zip bomb that lies about its size, when inflating it passes 100 MB', async () => {
    const bytes = zipOf([CONTENT_TYPES, { ...bomb, declaredSize: 1_000 }]);
    startTicking();
    const { error, ms } = await rejectionOf(parseDocument(bytes, 'docx'));
    expect([error.reason, error.message]).toEqual(['too_large', 'the DOCX expands beyond 100 MB']);
    expect(ms).toBeLessThan(10_000);
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses a DOCX whose declared size is absurd for its bytes', async () => {
    const { error } = await rejectionOf(parseDocument(zipOf([CONTENT_TYPES, bombDocument(50 * 1024 * 1024)]), 'docx'));
    expect(error.reason).toBe('too_large');
    expect(error.message).toMatch(/^the DOCX expands \d+ times its size; at most 100 times is read$/);
  });

  it('refuses a DOCX whose XML needs more memory than its reader has (the worker dies, the process does not)', async () => {
    const paragraphs = Buffer.from(
      `<w:document xmlns:w="http://schemas.openxmlformats.org/wordprocessingml/2006/main"><w:body>${'<w:p/>'.repeat(15_000_000)}</w:body></w:document>`,
    );
    // 90 MB of XML declared honestly, and 1 MB of noise beside it so that the whole is not absurdly
    // compressed: every declared check passes, only the worker's memory limit stands in its way.
    const noise = randomBytes(1024 * 1024);
    const bytes = zipOf([CONTENT_TYPES, part('word/document.xml', paragraphs), part('word/media/noise.bin', noise)]);
    startTicking();
    const { error } = await rejectionOf(parseDocument(bytes, 'docx'));
    expect([error.reason, error.message]).toEqual(['crashed', 'the document needs more than 256 MB of memory to read']);
    expect(ticks).toBeGreaterThan(0);
  });

  it('refuses an arbitrary ZIP, by kind and when read as a DOCX', async () => {
    const archive = zipOf([part('notes/readme.txt', utf8('hello')), part('data.csv', utf8('a,b\n1,2'))]);
    expect(kindOf(archive)).toBeUndefined();
    expect(kindOf(archive, 'archive.zip', 'application/zip')).toBeUndefined();
    // Called a DOCX, it is taken as one, and refused when read.
    expect(kindOf(archive, 'archive.docx')).toBe('docx');
    const { error } = await rejectionOf(parseDocument(archive, 'docx'));
    expect([error.reason, error.message]).toEqual(['unreadable', 'not a DOCX']);
  });
});

describe('hostile Markdown', () => {
  it('is terminated at the timeout when the parser takes too long (quotes nested 100 000 deep)', async () => {
    startTicking();
    const { error, ms } = await rejectionOf(parseDocument(utf8(`${'> '.repeat(100_000)}x`), 'markdown', { timeoutMs: 1_000 }));
    expect([error.reason, error.message]).toEqual(['too_slow', 'the document took longer than 1 s to read']);
    expect(ms).toBeLessThan(3_000);
    expect(ticks).toBeGreaterThan(50);
  });
});
