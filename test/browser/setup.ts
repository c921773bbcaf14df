import { ensureConsoleBuilt } from '../../web/build.js';

/** Before the browser tests (after scripts/test-browser.ts found Chromium): the console built, as `npm start` builds it. */
export default async function setup(): Promise<void> {
  await ensureConsoleBuilt((line) => console.log(line));
}
