import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { LAMBDA_ENTRIES, buildLambdaBundle, loadLambdaBundle } from '../lib/bundling.js';
import { buildConsole } from '../web/build.js';
import { percentile, type Row } from './report.js';

const root = join(import.meta.dirname, '..');
// Inside the project, so the bundles resolve the AWS SDK from node_modules as Lambda's runtime provides it.
const outdir = join(root, 'node_modules', '.cache', 'bundle-bench');

function loadTimeMs(file: string): Promise<number> {
  return loadLambdaBundle(file).then((loaded) => {
    if (!loaded.ok) throw new Error(`loading ${file} failed: ${loaded.error}`);
    return loaded.ms;
  });
}

/**
 * The Lambda bundles as deployed (the same esbuild build as the CDK constructs): what a cold start
 * loads (the entry and the chunks it imports), all files with the lazy chunks, and the time to
 * import each in a fresh Node process (module load, including the top-level wiring).
 */
export async function benchBundle(): Promise<Row[]> {
  mkdirSync(outdir, { recursive: true });
  const rows: Row[] = [];
  for (const [name, entry] of Object.entries(LAMBDA_ENTRIES)) {
    const bundle = await buildLambdaBundle(join(root, entry), join(outdir, name));
    const samples: number[] = [];
    for (let run = 0; run < 7; run += 1) samples.push(await loadTimeMs(bundle.entry));
    rows.push({
      bundle: `${name} (${entry})`,
      size_kb: Math.round(bundle.initialBytes / 1024),
      all_files_kb: Math.round(bundle.totalBytes / 1024),
      load_p50_ms: percentile(samples, 50),
      load_max_ms: Math.max(...samples.map((sample) => Math.round(sample * 10) / 10)),
    });
  }
  return rows;
}

/** The web console as `npm start` and the CDK stack build it: what a first visit loads, gzipped, and the whole build. */
export async function benchConsoleBundle(): Promise<Row[]> {
  const consoleDir = join(outdir, 'console');
  const started = performance.now();
  const sizes = await buildConsole(consoleDir);
  const buildMs = performance.now() - started;
  rmSync(consoleDir, { recursive: true, force: true });
  const kb = (bytes: number) => Math.round(bytes / 102.4) / 10;
  return [
    {
      bundle: 'console (web/src/main.tsx)',
      first_load_gzip_kb: kb(sizes.firstLoadBytes),
      all_files_gzip_kb: kb(sizes.totalBytes),
      files: sizes.files,
      build_ms: Math.round(buildMs),
    },
  ];
}
