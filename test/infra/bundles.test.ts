import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { LAMBDA_ENTRIES, buildLambdaBundle, loadLambdaBundle } from '../../lib/bundling.js';

const root = join(import.meta.dirname, '..', '..');
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
    },
    60_000,
  );

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
