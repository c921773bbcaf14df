import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAMBDA_ENTRIES, buildLambdaBundle, loadLambdaBundle } from '../../lib/bundling.js';

const root = join(import.meta.dirname, '..', '..');
// Inside the project, so the bundles resolve the AWS SDK from node_modules as Lambda's runtime provides it.
const outdir = join(root, 'node_modules', '.cache', 'bundle-test');

describe('the Lambda bundles as deployed', () => {
  // A bundle that synthesizes can still fail at its cold start: esbuild once ordered the MCP SDK's
  // module before zod's in the jobs bundle, and its first line threw. Each is built and imported.
  it.each(Object.entries(LAMBDA_ENTRIES))(
    '%s bundle loads in a fresh process (cold start)',
    async (name, entry) => {
      mkdirSync(outdir, { recursive: true });
      const outfile = join(outdir, `${name}.mjs`);
      await buildLambdaBundle(join(root, entry), outfile);
      const loaded = await loadLambdaBundle(outfile);
      expect(loaded.ok ? 'loaded' : loaded.error).toBe('loaded');
    },
    60_000,
  );
});
