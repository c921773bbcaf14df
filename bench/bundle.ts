import { spawnSync } from 'node:child_process';
import { mkdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { build } from 'esbuild';
import { LAMBDA_BUNDLE, LAMBDA_ENTRIES } from '../lib/bundling.js';
import { percentile, type Row } from './report.js';

const root = join(import.meta.dirname, '..');
// Inside the project, so the bundles resolve the AWS SDK from node_modules as Lambda's runtime provides it.
const outdir = join(root, 'node_modules', '.cache', 'bundle-bench');

/** What module loading needs from the environment (no network is touched while loading). */
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

function loadTimeMs(file: string): number {
  const script = `const t=performance.now();await import(${JSON.stringify(file)});process.stdout.write(String(performance.now()-t));`;
  const result = spawnSync(process.execPath, ['--input-type=module', '-e', script], {
    env: { ...process.env, ...LOAD_ENV },
    encoding: 'utf8',
  });
  if (result.status !== 0) throw new Error(`loading ${file} failed: ${result.stderr}`);
  return Number(result.stdout);
}

/**
 * The Lambda bundles as deployed (the same esbuild options as the CDK constructs): size, and the
 * time to import each in a fresh Node process (module load, including the top-level wiring).
 */
export async function benchBundle(): Promise<Row[]> {
  mkdirSync(outdir, { recursive: true });
  const rows: Row[] = [];
  for (const [name, entry] of Object.entries(LAMBDA_ENTRIES)) {
    const outfile = join(outdir, `${name}.mjs`);
    await build({
      entryPoints: [join(root, entry)],
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
    const samples = Array.from({ length: 7 }, () => loadTimeMs(outfile));
    rows.push({
      bundle: `${name} (${entry})`,
      size_kb: Math.round(statSync(outfile).size / 1024),
      load_p50_ms: percentile(samples, 50),
      load_max_ms: Math.max(...samples.map((sample) => Math.round(sample * 10) / 10)),
    });
  }
  return rows;
}
