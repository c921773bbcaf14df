/**
 * Tests read time from the injected clock only (test/support/clock.ts): `tsx scripts/test-clock.ts`
 * fails (exit 1) naming each `new Date()` or `Date.now()` in `test/` outside that helper. A test that
 * mixes the machine's clock with the service's passes in one month and fails in the next.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';

const ROOT = 'test';
const HELPER = join(ROOT, 'support', 'clock.ts');
const WALL_CLOCK = /\bnew\s+Date\(\s*\)|\bDate\.now\(\s*\)/;

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return name === '__snapshots__' ? [] : filesUnder(path);
    return /\.(ts|tsx|mjs|js)$/.test(path) ? [path] : [];
  });
}

const found = filesUnder(ROOT)
  .filter((file) => file !== HELPER)
  .flatMap((file) =>
    readFileSync(file, 'utf8')
      .split('\n')
      .flatMap((line, index) => (WALL_CLOCK.test(line) ? [`${file}:${index + 1}: ${line.trim()}`] : [])),
  );

if (found.length > 0) {
  console.error(`The machine's clock read in tests (use the test context's clock, or wallClock from ${HELPER} for real time):`);
  for (const line of found) console.error(`  ${line}`);
  process.exit(1);
}
console.log(`test clock: no new Date() or Date.now() in ${ROOT}/ outside ${HELPER}`);
