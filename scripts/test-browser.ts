import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { chromiumPath } from '../test/browser/browser.js';

/**
 * `npm run test:browser`: the console's browser tests (test/browser/), after checking that there is
 * a Chromium to drive, with a plain message saying how to get one when there is not.
 */
const path = chromiumPath();
if (!existsSync(path)) {
  console.error(
    [
      `The browser tests need Chromium, and there is none at ${path}.`,
      '  Debian/Ubuntu: sudo apt-get update && sudo apt-get install -y chromium',
      '  Elsewhere: CHROMIUM_PATH=/path/to/chromium-or-chrome npm run test:browser',
    ].join('\n'),
  );
  process.exit(1);
}
const run = spawnSync('npx', ['vitest', 'run', '--config', 'vitest.browser.config.ts', ...process.argv.slice(2)], { stdio: 'inherit' });
process.exit(run.status ?? 1);
