/**
 * How the Lambda functions are bundled, shared by the CDK constructs (`lib/functions.ts`) and the
 * bundle benchmark (`bench/bundle.ts`), so the benchmark measures what is deployed.
 */
export const LAMBDA_BUNDLE = {
  format: 'esm' as const,
  target: 'node22',
  minify: true,
  sourcemap: false,
  mainFields: ['module', 'main'],
  // The nodejs22.x runtime ships the AWS SDK v3: use it rather than bundle a second copy.
  external: ['@aws-sdk/*'],
  // ESM bundles of CommonJS dependencies still call require() for Node built-ins.
  banner: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);",
};

/** The entry point of each function. */
export const LAMBDA_ENTRIES = {
  api: 'functions/api/handler.ts',
  agent: 'functions/agent/handler.ts',
  stream: 'functions/stream/handler.ts',
  jobs: 'functions/jobs/handler.ts',
} as const;

/** What loading a bundle needs from the environment (no network is touched while loading). */
const LOAD_ENV = {
  TABLE_NAME: 'bench',
  AWS_REGION: 'eu-west-1',
  SESSION_SECRET: 'bundle-benchmark-session-secret-0123456789',
  SECRETS_KMS_KEY_ID: 'arn:aws:kms:eu-west-1:123456789012:key/bench',
  LIFECYCLE_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/lifecycle',
  COLD_MESSAGES_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/cold-messages',
  STATS_QUEUE_URL: 'https://sqs.eu-west-1.amazonaws.com/123456789012/conversation-stats',
  LIFECYCLE_QUEUE_ARN: 'arn:aws:sqs:eu-west-1:123456789012:lifecycle',
  SCHEDULER_GROUP_NAME: 'bench',
  SCHEDULER_ROLE_ARN: 'arn:aws:iam::123456789012:role/bench',
  LOG_LEVEL: 'SILENT',
  AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true',
};

/** Builds one function's bundle as the CDK constructs do. */
export async function buildLambdaBundle(entry: string, outfile: string): Promise<void> {
  const { build } = await import('esbuild');
  await build({
    entryPoints: [entry],
    bundle: true,
    platform: 'node',
    outfile,
    format: LAMBDA_BUNDLE.format,
    target: LAMBDA_BUNDLE.target,
    minify: LAMBDA_BUNDLE.minify,
    sourcemap: LAMBDA_BUNDLE.sourcemap,
    mainFields: LAMBDA_BUNDLE.mainFields,
    external: LAMBDA_BUNDLE.external,
    banner: { js: LAMBDA_BUNDLE.banner },
    logLevel: 'error',
  });
}

/**
 * Imports a bundle in a fresh Node process, as a cold start does (module load and the top-level
 * wiring; the Lambda runtime's `awslambda` global stubbed for the streaming entry). Answers the
 * time it took, or why it failed.
 */
export async function loadLambdaBundle(file: string): Promise<{ ok: true; ms: number } | { ok: false; error: string }> {
  const { spawnSync } = await import('node:child_process');
  const script =
    'globalThis.awslambda={streamifyResponse:(f)=>f,HttpResponseStream:{from:(s)=>s}};' +
    `const t=performance.now();await import(${JSON.stringify(file)});process.stdout.write(String(performance.now()-t));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...LOAD_ENV },
    encoding: 'utf8',
  });
  return result.status === 0 ? { ok: true, ms: Number(result.stdout) } : { ok: false, error: result.stderr.slice(0, 2000) };
}
