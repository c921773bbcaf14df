import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { defineConfig } from 'vitest/config';

// The tests' own certificate authority (test/fixtures/tls), trusted by the test processes (forks,
// which read NODE_EXTRA_CA_CERTS at start, one file: the machine's extra ones are kept beside it):
// the HTTPS servers of tests that need one (a client's metadata document,
// test/http/mcp-gateway-verified-client.test.ts) have its certificates.
const extra = process.env.NODE_EXTRA_CA_CERTS;
const trusted = join(tmpdir(), 'wap-test-ca.pem');
writeFileSync(
  trusted,
  [readFileSync('test/fixtures/tls/ca.pem', 'utf8'), extra && existsSync(extra) ? readFileSync(extra, 'utf8') : ''].join('\n'),
);
process.env.NODE_EXTRA_CA_CERTS = trusted;

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // Browser tests run apart: `npm run test:browser` (they need Chromium).
    exclude: ['test/browser/**'],
    globalSetup: ['test/support/global-setup.ts'],
    pool: 'forks',
    testTimeout: 30_000,
    hookTimeout: 30_000,
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
