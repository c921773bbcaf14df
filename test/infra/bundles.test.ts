import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { Worker } from 'node:worker_threads';
import { Document, HeadingLevel, Packer, Paragraph } from 'docx';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { describe, expect, it } from 'vitest';
import { LAMBDA_ENTRIES, buildLambdaBundle, loadLambdaBundle } from '../../lib/bundling.js';
import { zipEntriesOf } from '../../shared/knowledge/ingest/zip-directory.js';

const root = join(import.meta.dirname, '..', '..');

/** Text found only in the parsing libraries' code: pdf.js, mammoth, marked. */
const PARSING_LIBRARIES = ['PDFDocumentProxy', 'convertToHtml', 'marked(): input parameter'];

/** Runs a bundled parse worker as read-in-worker.ts does (its answer; a page count first for a PDF, skipped). */
function readInBundledWorker(file: string, job: Record<string, unknown>): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(file, { workerData: job, execArgv: [] });
    worker.on('message', (message: { type?: string }) => {
      if (message.type === 'pages') return;
      void worker.terminate();
      resolve(message);
    });
    worker.on('error', reject);
    worker.on('exit', (code) => reject(new Error(`the worker stopped (exit code ${code}) without an answer`)));
  });
}

async function pdfOf(line: string): Promise<Uint8Array> {
  const pdf = await PDFDocument.create();
  pdf.addPage([612, 792]).drawText(line, { x: 50, y: 700, size: 12, font: await pdf.embedFont(StandardFonts.Helvetica) });
  return pdf.save();
}

async function docxOf(heading: string, paragraph: string): Promise<Uint8Array> {
  const document = new Document({
    sections: [{ children: [new Paragraph({ text: heading, heading: HeadingLevel.HEADING_1 }), new Paragraph(paragraph)] }],
  });
  return new Uint8Array(await Packer.toBuffer(document));
}
// Inside the project, so the bundles resolve the AWS SDK from node_modules as Lambda's runtime provides it.
const outdir = join(root, 'node_modules', '.cache', 'bundle-test');

describe('the Lambda bundles as deployed', () => {
  // A bundle that synthesizes can still fail at its cold start: esbuild once ordered the MCP SDK's
  // module before zod's in the jobs bundle, and its first line threw. Each is built and imported,
  // and then its lazy chunks (the Bedrock SDK…), as the first request that needs them would.
  it.each(Object.entries(LAMBDA_ENTRIES))(
    '%s bundle loads in a fresh process (cold start), and then its lazy chunks',
    async (name, entry) => {
      const bundle = await buildLambdaBundle(join(root, entry), join(outdir, name));
      const loaded = await loadLambdaBundle(bundle.entry, bundle.lazyFiles);
      expect(loaded.ok ? 'loaded' : loaded.error).toBe('loaded');
      // Only the jobs function reads documents: the others carry neither the worker nor its libraries.
      expect(bundle.workerFiles.map((file) => basename(file)).includes('parse-worker.mjs')).toBe(name === 'jobs');
      if (name !== 'jobs') {
        const text = [...bundle.initialFiles, ...bundle.lazyFiles].map((file) => readFileSync(file, 'utf8')).join('\n');
        for (const library of PARSING_LIBRARIES) expect(text, library).not.toContain(library);
      }
    },
    60_000,
  );

  it("builds the jobs function's parse worker beside the code that starts it, with its libraries, and it reads Markdown, a PDF and a DOCX", async () => {
    // Outside the project, so the worker finds nothing in node_modules that the bundle left out.
    const dir = mkdtempSync(join(tmpdir(), 'wap-jobs-bundle-'));
    try {
      const bundle = await buildLambdaBundle(join(root, LAMBDA_ENTRIES.jobs), dir);
      // read-in-worker.ts starts `new URL('./parse-worker.mjs', import.meta.url)` from the file it is bundled in.
      const starters = [...bundle.initialFiles, ...bundle.lazyFiles].filter((file) =>
        readFileSync(file, 'utf8').includes('new URL("./parse-worker.mjs",import.meta.url)'),
      );
      expect(starters).toHaveLength(1);
      const worker = join(dirname(starters[0] as string), 'parse-worker.mjs');
      expect(existsSync(worker)).toBe(true);
      expect(bundle.workerFiles).toContain(worker);
      // The function's own thread never loads the libraries: they are the worker's chunks alone.
      const functionText = [...bundle.initialFiles, ...bundle.lazyFiles].map((file) => readFileSync(file, 'utf8')).join('\n');
      for (const library of PARSING_LIBRARIES) expect(functionText, library).not.toContain(library);

      const markdown = await readInBundledWorker(worker, {
        kind: 'markdown',
        bytes: new TextEncoder().encode('# Leave\n\nIs *25* days.\n'),
      });
      expect(markdown).toEqual({ type: 'html', html: expect.stringContaining('<h1>Leave</h1>') });
      const pdf = await readInBundledWorker(worker, {
        kind: 'pdf',
        bytes: await pdfOf('Leave is 25 days.'),
        maxPages: 10,
        maxCharacters: 10_000,
      });
      expect(pdf).toMatchObject({ type: 'pdf', pages: [[expect.objectContaining({ text: 'Leave is 25 days.' })]] });
      const docxBytes = await docxOf('Leave', 'Is 25 days.');
      const docx = await readInBundledWorker(worker, {
        kind: 'docx',
        bytes: docxBytes,
        entries: zipEntriesOf(docxBytes),
        maxExpandedBytes: 10 * 1024 * 1024,
      });
      expect(docx).toEqual({ type: 'html', html: '<h1>Leave</h1><p>Is 25 days.</p>' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 60_000);

  it('keeps the Bedrock SDK and the tool search ranking out of what the agent function loads at its cold start', async () => {
    const bundle = await buildLambdaBundle(join(root, LAMBDA_ENTRIES.agent), join(outdir, 'agent-lazy'));
    const { readFileSync } = await import('node:fs');
    const initial = bundle.initialFiles.map((file) => readFileSync(file, 'utf8')).join('\n');
    expect(initial).not.toContain('@aws-sdk/client-bedrock-runtime');
    expect(bundle.lazyFiles.some((file) => readFileSync(file, 'utf8').includes('@aws-sdk/client-bedrock-runtime'))).toBe(true);
    // Nor the tool search's ranking (MiniSearch and the stemmer): loaded by the first search.
    const isRanking = (file: string) => basename(file).startsWith('tool-index-');
    expect(bundle.initialFiles.filter(isRanking)).toEqual([]);
    expect(bundle.lazyFiles.filter(isRanking)).toHaveLength(1);
    // The store client is the SDK's DynamoDB client and document client, loaded from the runtime's
    // copy of the SDK (not bundled), at the cold start: the first request reads the store. (The
    // minifier may name its require helper with a `$`.)
    expect(initial).toMatch(/exports=[\w$]+\("@aws-sdk\/client-dynamodb"\)/);
    expect(initial).toMatch(/exports=[\w$]+\("@aws-sdk\/lib-dynamodb"\)/);
  }, 60_000);
});
