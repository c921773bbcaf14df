import { Worker } from 'node:worker_threads';

/**
 * A guard against catastrophic backtracking in admin-written guardrail patterns. JavaScript
 * regular expressions backtrack, and a pattern such as `(a+)+$` takes exponential time on a short
 * text that almost matches: run on a member's question or a model's answer, it would hold the
 * process (and every request on it) for minutes. Node cannot interrupt a regular expression in
 * its own thread, so a new pattern is tried in a worker thread on probe texts, and the worker is
 * stopped after a time limit.
 *
 * The probes are runs of 32 of one character followed by a different one, for each character the
 * pattern names literally and a few common ones: the shape that sets off exponential backtracking
 * (nested or overlapping quantifiers). A safe pattern clears them in well under a millisecond; an
 * exponential one takes seconds to hours. This is a heuristic: a pattern slow only on texts unlike
 * the probes, or slow polynomially, is not caught.
 */

const PROBE_RUN = 32;
/** How long the probes may take, counted once the worker has compiled the pattern. */
const DEFAULT_LIMIT_MS = 500;
const COMMON = ['a', 'A', '1', ' ', '.', '-', '_', '@', '\t', '\n'];
const ENDINGS = ['!', '\u0000', 'a', '1', ' '];

const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const pattern = new RegExp(workerData.pattern, 'giu');
parentPort.postMessage('ready');
for (const probe of workerData.probes) {
  pattern.lastIndex = 0;
  pattern.test(probe);
}
parentPort.postMessage('done');
`;

/** The probe texts for a pattern (exported for tests). */
export function probesFor(pattern: string): string[] {
  const literal = [...pattern].filter((char) => /[\p{L}\p{N}\p{P}\p{S} ]/u.test(char) && !'\\()[]{}|?*+^$'.includes(char));
  const chars = [...new Set([...COMMON, ...literal])];
  return chars.flatMap((char) => ENDINGS.filter((end) => end !== char).map((end) => char.repeat(PROBE_RUN) + end));
}

/**
 * True when `pattern` (valid with flags `giu`) takes longer than `limitMs` on its probe texts:
 * it backtracks catastrophically. A pattern that fails to compile answers false (refused elsewhere).
 */
export async function backtracksCatastrophically(pattern: string, limitMs = DEFAULT_LIMIT_MS): Promise<boolean> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { pattern, probes: probesFor(pattern) } });
  try {
    return await new Promise<boolean>((resolve) => {
      let timer: NodeJS.Timeout | undefined;
      worker.on('message', (message: string) => {
        if (message === 'ready') timer = setTimeout(() => resolve(true), limitMs);
        else {
          clearTimeout(timer);
          resolve(false);
        }
      });
      worker.once('error', () => {
        clearTimeout(timer);
        resolve(false);
      });
      worker.once('exit', () => {
        clearTimeout(timer);
        resolve(false);
      });
    });
  } finally {
    await worker.terminate();
  }
}
