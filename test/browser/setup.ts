import { existsSync } from 'node:fs';
import { ensureConsoleBuilt } from '../../web/build.js';
import { chromiumPath } from './browser.js';

/** Before the browser tests: Chromium must be there (said plainly when not), and the console built. */
export default async function setup(): Promise<void> {
  const path = chromiumPath();
  if (!existsSync(path)) {
    throw new Error(
      [
        `The browser tests need Chromium, and there is none at ${path}.`,
        'Install it (Debian/Ubuntu): sudo apt-get update && sudo apt-get install -y chromium',
        'or point CHROMIUM_PATH at a Chromium or Chrome binary: CHROMIUM_PATH=/path/to/chrome npm run test:browser',
      ].join('\n'),
    );
  }
  await ensureConsoleBuilt((line) => console.log(line));
}
