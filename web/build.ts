import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { writeFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { promisify } from 'node:util';
import { brotliCompress, constants, gzip, gzipSync } from 'node:zlib';
import { build, type Metafile } from 'esbuild';

/**
 * Builds the console (web/) to static files with esbuild, the bundler the Lambda functions already
 * use (docs/architecture.md, "The console"): one entry, code split per lazy page, hashed names.
 * The build is what the local runtime serves at `/` and what the CDK stack uploads to S3.
 */

const webDir = import.meta.dirname;
export const CONSOLE_DIST = join(webDir, 'dist');
const STAMP = 'build-stamp.json';
const ENTRY = 'src/main.tsx';

/** The gzipped sizes of a build: what a first visit loads, and everything. */
export interface ConsoleSizes {
  /** index.html, the entry script, the chunks it imports statically and the stylesheet, gzipped. */
  firstLoadBytes: number;
  /** Every file of the build, gzipped. */
  totalBytes: number;
  files: number;
}

/** The files the build depends on: the sources, the page template, this script and the locked versions. */
function inputsOf(): string[] {
  const files: string[] = [];
  const walk = (dir: string) => {
    for (const name of readdirSync(dir)) {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) walk(path);
      else files.push(path);
    }
  };
  walk(join(webDir, 'src'));
  files.push(join(webDir, 'index.html'), join(webDir, 'build.ts'), join(webDir, 'package.json'));
  const lock = join(webDir, '..', 'package-lock.json');
  if (existsSync(lock)) files.push(lock);
  return files.sort();
}

/** A hash of the inputs: a build is current when its stamp holds the same. */
export function sourceHash(): string {
  const hash = createHash('sha256');
  for (const file of inputsOf()) hash.update(relative(webDir, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex');
}

const gzipped = (bytes: Buffer | string) => gzipSync(bytes, { level: 9 }).length;

const brotli = promisify(brotliCompress);
const gzipAsync = promisify(gzip);
/** Brotli's quality 10 is within 2% of its best (11) in half the time, and 5% smaller than 9. */
const BROTLI_QUALITY = 10;
/** As CloudFront: files under 1 000 bytes are sent as they are (compressing them gains next to nothing). */
const COMPRESS_FROM_BYTES = 1000;

/**
 * Writes `file.br` (Brotli) and `file.gz` (gzip -9) next to each script, stylesheet and page,
 * which bin/console.ts sends to a browser that accepts them (on AWS CloudFront compresses instead).
 * Done in parallel on zlib's thread pool: about half a second for the whole build.
 */
async function precompress(files: string[]): Promise<void> {
  const compressible = files.filter((file) => /\.(js|css|html)$/.test(file));
  await Promise.all(
    compressible.map(async (file) => {
      const bytes = readFileSync(file);
      if (bytes.length < COMPRESS_FROM_BYTES) return;
      const params = { [constants.BROTLI_PARAM_QUALITY]: BROTLI_QUALITY, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length };
      const [br, gz] = await Promise.all([brotli(bytes, { params }), gzipAsync(bytes, { level: 9 })]);
      await Promise.all([writeFile(`${file}.br`, br), writeFile(`${file}.gz`, gz)]);
    }),
  );
}

/** What a first visit downloads: the entry and the chunks it imports statically (not the lazy pages). */
function firstLoadOf(outputs: Metafile['outputs'], entry: string): string[] {
  const seen = new Set<string>();
  const visit = (path: string) => {
    if (seen.has(path)) return;
    seen.add(path);
    const output = outputs[path];
    if (output?.cssBundle) seen.add(output.cssBundle);
    for (const imported of output?.imports ?? []) if (imported.kind === 'import-statement' && !imported.external) visit(imported.path);
  };
  visit(entry);
  return [...seen];
}

/**
 * Builds web/ into `outdir` (web/dist by default) and answers its sizes. Built beside it and then
 * moved in place, so a server reading `outdir` (or a second build at the same time) never sees half a build.
 */
export async function buildConsole(outdir = CONSOLE_DIST): Promise<ConsoleSizes> {
  const building = `${outdir}.building-${process.pid}-${Date.now()}`;
  try {
    const sizes = await buildInto(building);
    const previous = `${building}.previous`;
    if (existsSync(outdir)) renameSync(outdir, previous);
    renameSync(building, outdir);
    rmSync(previous, { recursive: true, force: true });
    return sizes;
  } finally {
    rmSync(building, { recursive: true, force: true });
  }
}

async function buildInto(outdir: string): Promise<ConsoleSizes> {
  mkdirSync(outdir, { recursive: true });
  const { metafile } = await build({
    absWorkingDir: webDir,
    entryPoints: [ENTRY],
    bundle: true,
    splitting: true,
    format: 'esm',
    target: ['es2022', 'chrome111', 'firefox111', 'safari16.4'],
    minify: true,
    sourcemap: 'linked',
    jsx: 'automatic',
    define: { 'process.env.NODE_ENV': '"production"' },
    entryNames: 'assets/[name]-[hash]',
    chunkNames: 'assets/[name]-[hash]',
    assetNames: 'assets/[name]-[hash]',
    outdir,
    metafile: true,
    logLevel: 'silent',
  });
  // Output paths are relative to web/.
  const file = (path: string) => join(webDir, path);
  const href = (path: string) => `/${relative(outdir, file(path)).split('\\').join('/')}`;
  const entry = Object.keys(metafile.outputs).find((path) => metafile.outputs[path]?.entryPoint === ENTRY);
  if (!entry) throw new Error('the console build has no entry output');
  const css = metafile.outputs[entry]?.cssBundle;
  // The chunks the entry imports are announced with the page, fetched alongside the entry rather than after it.
  const preloads = firstLoadOf(metafile.outputs, entry).filter((path) => path !== entry && path.endsWith('.js'));
  const tags = [
    css ? `<link rel="stylesheet" href="${href(css)}">` : '',
    ...preloads.map((path) => `<link rel="modulepreload" href="${href(path)}">`),
    // Every page asks who is signed in first: asked with the page, the script's own request finds it on its way.
    '<link rel="preload" href="/api/auth/session" as="fetch" crossorigin>',
    `<script type="module" src="${href(entry)}"></script>`,
  ];
  const html = readFileSync(join(webDir, 'index.html'), 'utf8').replace('<!-- assets -->', tags.filter(Boolean).join('\n    '));
  writeFileSync(join(outdir, 'index.html'), html);
  const served = Object.keys(metafile.outputs).filter((path) => !path.endsWith('.map'));
  await precompress([...served.map(file), join(outdir, 'index.html')]);
  const sum = (paths: string[]) => paths.reduce((bytes, path) => bytes + gzipped(readFileSync(file(path))), gzipped(html));
  return { firstLoadBytes: sum(firstLoadOf(metafile.outputs, entry)), totalBytes: sum(served), files: served.length + 1 };
}

/** Builds the console unless web/dist already holds a build of the current sources; `progress` gets a line for each step. */
export async function ensureConsoleBuilt(progress: (line: string) => void): Promise<void> {
  const hash = sourceHash();
  const stampFile = join(CONSOLE_DIST, STAMP);
  try {
    if (JSON.parse(readFileSync(stampFile, 'utf8')).hash === hash && existsSync(join(CONSOLE_DIST, 'index.html'))) return;
  } catch {
    // No stamp (never built, or an interrupted build): build.
  }
  progress('building the web console (web/ → web/dist), once per change of its sources…');
  const started = performance.now();
  const sizes = await buildConsole();
  writeFileSync(stampFile, JSON.stringify({ hash, ...sizes }));
  const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
  progress(`web console built in ${((performance.now() - started) / 1000).toFixed(1)} s (first load ${kb(sizes.firstLoadBytes)} gzipped)`);
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  const sizes = await buildConsole();
  writeFileSync(join(CONSOLE_DIST, STAMP), JSON.stringify({ hash: sourceHash(), ...sizes }));
  console.log(
    `web/dist: ${sizes.files} files, first load ${(sizes.firstLoadBytes / 1024).toFixed(1)} KB gzipped, all ${(sizes.totalBytes / 1024).toFixed(1)} KB`,
  );
}
