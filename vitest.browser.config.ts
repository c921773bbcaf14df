import { defineConfig } from 'vitest/config';

/** The web console driven in Chromium: `npm run test:browser` (scripts/test-browser.ts checks for Chromium first; docs/console.md). */
export default defineConfig({
  test: {
    include: ['test/browser/**/*.test.ts'],
    pool: 'forks',
    // One browser at a time: each file starts its own service and Chromium.
    fileParallelism: false,
    testTimeout: 60_000,
    hookTimeout: 60_000,
    globalSetup: ['test/browser/setup.ts'],
    env: { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' },
  },
});
