import { Worker } from 'node:worker_threads';
import { z } from 'zod';
import { DocumentRejectedError, tooSlow } from './rejected.js';
import type { ZipEntry } from './zip-directory.js';

/*
 * Runs parse-worker.mjs on one document: a new worker thread per document, with a memory limit,
 * terminated at the timeout, so a hostile document costs at most its worker. A worker that dies
 * (out of memory, a crash) or answers nothing is a rejection, never an unhandled error.
 */

/** What the worker reads: the bytes of a PDF, a Markdown document or a DOCX, and its limits. */
type WorkerJob =
  | { kind: 'markdown'; bytes: Uint8Array }
  | { kind: 'pdf'; bytes: Uint8Array; maxPages: number; maxCharacters: number }
  | { kind: 'docx'; bytes: Uint8Array; entries: ZipEntry[]; maxExpandedBytes: number };

/**
 * The worker file, beside this one: plain ESM JavaScript that tsx, vitest and node run as they find
 * it (a bundle must emit it as an entry of its own beside the bundle that starts it).
 */
const WORKER_FILE = new URL('./parse-worker.mjs', import.meta.url);

/**
 * The worker's memory: pdf.js and mammoth need a few tens of MB for real documents; a document that
 * needs more than 256 MB of heap is refused rather than allowed to take the process's. (Buffers
 * outside the heap are not counted: the worker bounds the ones it makes, such as a DOCX's inflated
 * parts.) The stack is Node's default, named so that deep nesting fails the same way everywhere.
 */
const RESOURCE_LIMITS = { maxOldGenerationSizeMb: 256, maxYoungGenerationSizeMb: 32, stackSizeMb: 4 };

const PagesReport = z.object({ type: z.literal('pages'), pages: z.number().int().nonnegative() });

const WorkerAnswer = z.discriminatedUnion('type', [
  z.object({
    type: z.literal('pdf'),
    title: z.string().optional(),
    pages: z.array(z.array(z.object({ text: z.string(), y: z.number(), size: z.number() }))),
  }),
  z.object({ type: z.literal('html'), html: z.string() }),
  z.object({
    type: z.literal('rejected'),
    reason: z.enum(['unreadable', 'too_large', 'too_many_pages', 'too_much_text']),
    pages: z.number().int().nonnegative().optional(),
  }),
]);

/** The worker's answer: a PDF's lines per page, a document's HTML, or why it refused the document. */
export type WorkerAnswer = z.infer<typeof WorkerAnswer>;

/** The rejection of a worker that died: out of memory, or anything else. */
function deathOf(error: unknown): DocumentRejectedError {
  const outOfMemory = error instanceof Error && 'code' in error && error.code === 'ERR_WORKER_OUT_OF_MEMORY';
  return outOfMemory
    ? new DocumentRejectedError('crashed', `the document needs more than ${RESOURCE_LIMITS.maxOldGenerationSizeMb} MB of memory to read`, {
        cause: error,
      })
    : new DocumentRejectedError('crashed', "the document's reader failed on it", { cause: error });
}

/**
 * Reads a document in a worker thread. `onPages` sees a PDF's page count as soon as the worker
 * knows it, before any page is read; what it throws ends the worker and is the rejection.
 */
export function readInWorker(job: WorkerJob, timeoutMs: number, onPages?: (pages: number) => void): Promise<WorkerAnswer> {
  return new Promise((resolve, reject) => {
    // The bytes are copied to the worker (structured clone), not transferred: the caller keeps its own.
    const worker = new Worker(WORKER_FILE, { workerData: job, resourceLimits: RESOURCE_LIMITS, execArgv: [] });
    let settled = false;
    const settle = (outcome: () => void) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      void worker.terminate();
      outcome();
    };
    const timer = setTimeout(() => settle(() => reject(tooSlow(timeoutMs))), timeoutMs);
    worker.on('message', (message: unknown) => {
      const pages = PagesReport.safeParse(message);
      if (pages.success) {
        try {
          onPages?.(pages.data.pages);
        } catch (error) {
          settle(() => reject(error));
        }
        return;
      }
      const answer = WorkerAnswer.safeParse(message);
      settle(() => (answer.success ? resolve(answer.data) : reject(deathOf(answer.error))));
    });
    worker.on('error', (error) => settle(() => reject(deathOf(error))));
    worker.on('messageerror', (error) => settle(() => reject(deathOf(error))));
    worker.on('exit', (code) =>
      settle(() => reject(deathOf(new Error(`the reader's worker stopped (exit code ${code}) without an answer`)))),
    );
  });
}
