import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MIGRATIONS, SCHEMA_VERSION } from '../../migrations/index.js';
import { type Migration, runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { RecordingLogger } from '../support/logger.js';

/*
 * The runner of numbered migrations (shared/platform/migrations.ts): a new table starts at this
 * version without a migration to run (a first `npm start` logs none), and a migration stopped
 * half-way goes on, when run again, from the page of its scan where it stopped.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

describe('runMigrations', () => {
  it('starts a new table at this version: no migration runs and nothing is logged', async () => {
    const logger = new RecordingLogger();
    const report = await runMigrations(t.deps.table, MIGRATIONS, { clock: t.clock, logger });
    expect(report).toEqual({ from: SCHEMA_VERSION, to: SCHEMA_VERSION, moved: 0, left: 0, ran: [] });
    expect(await t.deps.table.get(SCHEMA_MARKER, true)).toMatchObject({ version: SCHEMA_VERSION });
    expect(logger.records).toEqual([]);
  });

  it('goes on from the page where a stopped run left its scan, and then moves the version on', async () => {
    // About 1.3 MB of items: a scan reads them in two pages (a page stops at 1 MB).
    const filler = 'x'.repeat(100_000);
    for (let index = 0; index < 13; index += 1) await t.deps.table.put({ pk: `RUNNERTEST#${index}`, sk: 'ITEM', filler });
    await t.deps.table.put({ ...SCHEMA_MARKER, version: SCHEMA_VERSION });
    const seen: string[][] = [];
    // The first run stops in the second page: the first is done, and its position saved.
    let stopAfter: number | undefined = 12;
    const counting: Migration = {
      version: SCHEMA_VERSION + 1,
      name: 'counts the test items',
      async run({ scan }) {
        const run: string[] = [];
        seen.push(run);
        const items = scan('items', { condition: 'begins_with(pk, :prefix)', values: { ':prefix': 'RUNNERTEST#' } });
        for await (const item of items) {
          run.push(item.pk);
          if (run.length === stopAfter) throw new Error('stopped');
        }
      },
    };
    await expect(runMigrations(t.deps.table, [counting], { clock: t.clock })).rejects.toThrow('stopped');
    expect(await t.deps.table.get(SCHEMA_MARKER, true)).toMatchObject({ version: SCHEMA_VERSION });
    stopAfter = undefined;
    const report = await runMigrations(t.deps.table, [counting], { clock: t.clock });
    expect(report).toMatchObject({ from: SCHEMA_VERSION, to: SCHEMA_VERSION + 1 });
    const [first = [], second = []] = seen;
    // The second run read only what the first had not finished: the page it stopped in, not the one before.
    expect(second.length).toBeLessThan(13);
    expect(second).not.toContain(first[0]);
    expect(new Set([...first, ...second]).size).toBe(13);
    expect(await t.deps.table.get(SCHEMA_MARKER, true)).toMatchObject({ version: SCHEMA_VERSION + 1 });
    expect((await t.deps.table.get<{ cursors?: object }>(SCHEMA_MARKER, true))?.cursors).toEqual({});
  });

  it('does not scan again a scan a stopped run had finished: a run goes on from its later scan', async () => {
    for (let index = 0; index < 3; index += 1) await t.deps.table.put({ pk: `TWOSCANS#${index}`, sk: 'ITEM' });
    await t.deps.table.put({ ...SCHEMA_MARKER, version: SCHEMA_VERSION + 1 });
    const read: Record<string, number> = { first: 0, second: 0 };
    let stop = true;
    const twoScans: Migration = {
      version: SCHEMA_VERSION + 2,
      name: 'scans the test items twice',
      async run({ scan }) {
        for (const name of ['first', 'second']) {
          for await (const _ of scan(name, { condition: 'begins_with(pk, :prefix)', values: { ':prefix': 'TWOSCANS#' } })) {
            read[name] = (read[name] ?? 0) + 1;
            if (name === 'second' && stop) throw new Error('stopped');
          }
        }
      },
    };
    await expect(runMigrations(t.deps.table, [twoScans], { clock: t.clock })).rejects.toThrow('stopped');
    expect(read).toEqual({ first: 3, second: 1 });
    stop = false;
    expect(await runMigrations(t.deps.table, [twoScans], { clock: t.clock })).toMatchObject({ to: SCHEMA_VERSION + 2 });
    // A table a full scan takes minutes to read goes on where it stopped, rather than read its finished scans on every run.
    expect(read).toEqual({ first: 3, second: 4 });
    expect((await t.deps.table.get<{ cursors?: object }>(SCHEMA_MARKER, true))?.cursors).toEqual({});
  });
});
