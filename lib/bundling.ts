import type { BuildOptions, Metafile, Plugin } from 'esbuild';
import { rmSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';

const root = join(import.meta.dirname, '..');

/**
 * How the Lambda functions are bundled, shared by the CDK constructs (`lib/functions.ts`), the
 * bundle test and the benchmark (`bench/bundle.ts`), so they load and measure what is deployed.
 */
const LAMBDA_BUNDLE = {
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
  sourcemap: false,
  mainFields: ['module', 'main'],
  // The nodejs22.x runtime ships the AWS SDK v3: use it rather than bundle a second copy.
  external: ['@aws-sdk/*'],
  // ESM bundles of CommonJS dependencies still call require() for Node built-ins.
  banner: { js: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);" },
  metafile: true,
  logLevel: 'error',
} satisfies BuildOptions;

/** The entry point of each function. */
export const LAMBDA_ENTRIES = {
  api: 'functions/api/handler.ts',
  agent: 'functions/agent/handler.ts',
  stream: 'functions/stream/handler.ts',
  jobs: 'functions/jobs/handler.ts',
} as const;

/** What loading a bundle needs from the environment (no network is touched while loading). */
export const LOAD_ENV = {
  TABLE_NAME: 'bench',
  AWS_REGION: 'eu-west-1',
  SESSION_SECRET: 'bundle-benchmark-session-secret-0123456789',
  SECRETS_KMS_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/bench',
  LIFECYCLE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/lifecycle',
  COLD_MESSAGES_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/cold-messages',
  STATS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/conversation-stats',
  EVALS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/evals',
  KNOWLEDGE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/knowledge',
  KNOWLEDGE_BUCKET: 'bench-knowledge',
  LIFECYCLE_QUEUE_ARN: 'arn:aws:sqs:eu-west-1:123456789012:lifecycle',
  SCHEDULER_GROUP_NAME: 'bench',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/bench',
  LOG_LEVEL: 'SILENT',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/**
 * zod's locales, less English: every message translation zod ships (260 KB minified), none of
 * which the service uses. zod's namespace object (`z`), which zod-openapi passes around whole,
 * holds them all, so a bundle cannot drop them unused; this gives zod's own locale index the
 * English messages only (what zod configures at load), and `z.locales` only `en`.
 */
const zodEnglishOnly: Plugin = {
  name: 'zod-english-only',
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[\\/]node_modules[\\/]zod[\\/]v4[\\/]/.test(args.importer)
        ? { path: join(dirname(args.importer), '..', 'locales', 'index.js'), namespace: 'zod-locales' }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'zod-locales' }, (args) => ({
      contents: `export { default as en } from ${JSON.stringify(join(dirname(args.path), 'en.js'))};`,
      resolveDir: dirname(args.path),
      loader: 'js',
    }));
  },
};

/**
 * The AWS SDK's packages that bundled code imports statically (Powertools' Secrets Manager client,
 * the store's DynamoDB client and document client), loaded with `require`. They are CommonJS, outside the bundle
 * (the runtime's copy), and Node scans a CommonJS module imported from an ES module for its export
 * names before it runs it: 20–50 ms of a cold start on these. esbuild's CommonJS interop reads the
 * names from `module.exports` at run time instead. `import()` of a client (KMS, SQS, Scheduler,
 * loaded on first use) is left as it is.
 */
const awsSdkByRequire: Plugin = {
  name: 'aws-sdk-by-require',
  setup(build) {
    build.onResolve({ filter: /^@aws-sdk\// }, (args) =>
      args.kind === 'import-statement' ? { path: args.path, namespace: 'aws-sdk-require' } : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: 'aws-sdk-require' }, (args) => ({
      contents: `module.exports = require(${JSON.stringify(args.path)});`,
      loader: 'js',
    }));
  },
};

/** Where a bundle's own copy of the Bedrock SDK is, beside its entry and chunks (see `bedrockApart`). */
const BEDROCK_FILE = 'bedrock-sdk.mjs';

/**
 * The Bedrock SDK (`@anthropic-ai/bedrock-sdk`, imported with `import()` when an organisation uses
 * Bedrock: shared/models/anthropic.ts) as a file of its own, built apart with its own copy of
 * Anthropic's SDK. Within one code-split build it would share that SDK's modules with the entry,
 * and the resources it makes (the whole beta API) would land in a chunk every cold start loads.
 */
const bedrockApart: Plugin = {
  name: 'bedrock-apart',
  setup(build) {
    build.onResolve({ filter: /^@anthropic-ai\/bedrock-sdk$/ }, () => ({ path: `./${BEDROCK_FILE}`, external: true }));
  },
};

/**
 * The knowledge reader's worker thread, which `startedBy` starts from
 * `new URL('./parse-worker.mjs', import.meta.url)`. esbuild leaves that URL as written, so a bundle
 * holding `startedBy` gets the worker built as an entry of its own, `parse-worker.mjs`, beside its
 * entry and chunks: every chunk is in the bundle's directory (`chunkNames`), so the URL finds it
 * from whichever chunk the starting code lands in. The parsing libraries (pdf.js, mammoth, marked)
 * are the worker's own chunks (`parse-worker-*.mjs`), each loaded by a worker for its kind of
 * document, never by the function's thread; a bundle without `startedBy` (the API's, the agent's)
 * gets none of it.
 */
const PARSE_WORKER = {
  startedBy: 'shared/knowledge/ingest/read-in-worker.ts',
  entry: 'shared/knowledge/ingest/parse-worker.mjs',
  name: 'parse-worker',
};

/** Builds the parse worker into `outdir` (`PARSE_WORKER`), answering esbuild's outputs. */
async function buildParseWorker(outdir: string): Promise<Metafile['outputs']> {
  const { build } = await import('esbuild');
  const worker = await build({
    ...LAMBDA_BUNDLE,
    entryPoints: { [PARSE_WORKER.name]: join(root, PARSE_WORKER.entry) },
    outdir,
    splitting: true,
    // Named apart from the function's chunks, which share the directory.
    chunkNames: `${PARSE_WORKER.name}-[name]-[hash]`,
    outExtension: { '.js': '.mjs' },
  });
  return worker.metafile.outputs;
}

/** One function's bundle: its entry file (`index.mjs`), and what a cold start loads and what is loaded later. */
export interface LambdaBundle {
  entry: string;
  /** The entry and the chunks it imports statically: what a cold start loads. */
  initialFiles: string[];
  /** The chunks loaded on demand (`import()`): the Bedrock SDK and others not every request needs. */
  lazyFiles: string[];
  /** What worker threads load (the parse worker and its chunks: `PARSE_WORKER`), never the function's own thread. */
  workerFiles: string[];
  initialBytes: number;
  totalBytes: number;
}

/**
 * Builds one function's bundle as the CDK constructs deploy it, into `outdir`: `index.mjs` and,
 * with code splitting, the chunks beside it; a dynamic `import()` in the code is a chunk loaded on
 * its first use, not at the cold start (and the Bedrock SDK a file of its own, `bedrockApart`; the
 * parse worker, for the bundle that starts it, files of their own: `PARSE_WORKER`).
 */
export async function buildLambdaBundle(entry: string, outdir: string): Promise<LambdaBundle> {
  const { build } = await import('esbuild');
  rmSync(outdir, { recursive: true, force: true });
  const result = await build({
    ...LAMBDA_BUNDLE,
    entryPoints: { index: entry },
    outdir,
    splitting: true,
    // Beside the entry, so every file imports the Bedrock SDK's by the same relative path.
    chunkNames: '[name]-[hash]',
    outExtension: { '.js': '.mjs' },
    plugins: [zodEnglishOnly, bedrockApart, awsSdkByRequire],
  });
  const outputs = result.metafile.outputs;
  const usesBedrock = Object.values(outputs).some((output) => output.imports.some((imported) => imported.path === `./${BEDROCK_FILE}`));
  if (usesBedrock) {
    const bedrock = await build({
      ...LAMBDA_BUNDLE,
      stdin: { contents: "export { default } from '@anthropic-ai/bedrock-sdk';", resolveDir: dirname(entry), loader: 'js' },
      outfile: join(outdir, BEDROCK_FILE),
      plugins: [awsSdkByRequire],
    });
    Object.assign(outputs, bedrock.metafile.outputs);
  }
  // In the bundle's code, not only among the files esbuild read (the API's imports the ingest module, and tree-shakes the reader out).
  const startsParseWorker = Object.values(outputs).some((output) =>
    Object.entries(output.inputs).some(
      ([input, { bytesInOutput }]) => bytesInOutput > 0 && resolve(input) === join(root, PARSE_WORKER.startedBy),
    ),
  );
  const workerOutputs = startsParseWorker ? await buildParseWorker(outdir) : {};
  Object.assign(outputs, workerOutputs);
  const absolute = (file: string) => resolve(file);
  const entryKey = Object.keys(outputs).find((file) => absolute(file) === join(resolve(outdir), 'index.mjs'));
  if (!entryKey) throw new Error(`esbuild wrote no index.mjs for ${entry}`);
  const initial = new Set<string>();
  const pending = [entryKey];
  for (let file = pending.pop(); file !== undefined; file = pending.pop()) {
    if (initial.has(file)) continue;
    initial.add(file);
    for (const imported of outputs[file]?.imports ?? []) {
      if (imported.kind === 'import-statement' && outputs[imported.path]) pending.push(imported.path);
    }
  }
  const bytesOf = (files: string[]) => files.reduce((sum, file) => sum + (outputs[file]?.bytes ?? 0), 0);
  const all = Object.keys(outputs);
  return {
    entry: absolute(entryKey),
    initialFiles: [...initial].map(absolute),
    lazyFiles: all.filter((file) => !initial.has(file) && !(file in workerOutputs)).map(absolute),
    workerFiles: Object.keys(workerOutputs).map(absolute),
    initialBytes: bytesOf([...initial]),
    totalBytes: bytesOf(all),
  };
}

/**
 * Imports a bundle in a fresh Node process, as a cold start does (module load and the top-level
 * wiring; the Lambda runtime's `awslambda` global stubbed for the streaming entry). Answers the
 * time it took, or why it failed. `thenImport` (a bundle's lazy chunks) are imported after it,
 * untimed, as a request that needs them would: a chunk that throws as it loads fails too.
 */
export async function loadLambdaBundle(
  file: string,
  thenImport: string[] = [],
): Promise<{ ok: true; ms: number } | { ok: false; error: string }> {
  const { spawnSync } = await import('node:child_process');
  const script =
    'globalThis.awslambda={streamifyResponse:(f)=>f,HttpResponseStream:{from:(s)=>s}};' +
    `const t=performance.now();await import(${JSON.stringify(file)});const ms=performance.now()-t;` +
    `for(const chunk of ${JSON.stringify(thenImport)})await import(chunk);` +
    'process.stdout.write(String(ms));';
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    // Only what a cold start has: not the developer's credentials, endpoints or secrets.
    env: { PATH: process.env.PATH ?? '', ...LOAD_ENV },
    encoding: 'utf8',
  });
  return result.status === 0 ? { ok: true, ms: Number(result.stdout) } : { ok: false, error: result.stderr.slice(0, 2000) };
}
