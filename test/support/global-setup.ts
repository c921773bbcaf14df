import { ensureConsoleBuilt } from '../../web/build.js';

/**
 * Once before every test file: the web console built in web/dist (when its sources changed), as
 * `npm start` does. The stack tests upload it (lib/console.ts) and the runtime tests serve it.
 */
export default async function setup(): Promise<void> {
  await ensureConsoleBuilt(() => {});
}
