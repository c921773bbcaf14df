import { z } from 'zod';
import { startEmbeddedStore } from '../bin/local-runtime.js';
import { createDeps } from '../shared/wiring/deps.js';
import { jobHandlers } from '../shared/wiring/job-handlers.js';
import { LocalJobRunner } from '../shared/jobs/local-runner.js';
import { DueIndexScheduler } from '../shared/jobs/scheduler.js';
import { deliveryOf, type JobHandlers } from '../shared/jobs/worker.js';
import { systemClock } from '../shared/platform/clock.js';
import { parseConfig } from '../shared/platform/config.js';
import { createDynamoClient } from '../shared/platform/dynamo.js';
import { Table } from '../shared/platform/table.js';
import { ensureTable } from '../shared/platform/table-create.js';
import { QUIET_LOGGER, type Row } from './report.js';
import { inMemorySecrets } from '../shared/platform/secrets.js';

/**
 * Throughput of the local runner for a no-op job: each job is recorded in the ledger, claimed,
 * run and completed (with the queue counters), against dynalite in memory.
 */
export async function benchJobs(): Promise<Row[]> {
  const store = await startEmbeddedStore(null);
  const config = parseConfig({ DATA_DIR: 'memory', LOG_LEVEL: 'SILENT' }, 'local');
  const client = createDynamoClient(config, store.endpoint);
  await ensureTable(client, config.tableName);
  const rows: Row[] = [];
  try {
    for (const concurrency of [1, 4, 16]) {
      const table = new Table(client, config.tableName, systemClock);
      const settings = { maxAttempts: 3, retryBaseMs: 1000 };
      const runner = new LocalJobRunner({ table, clock: systemClock, logger: QUIET_LOGGER }, { concurrency, ...settings });
      const deps = createDeps({
        config,
        table,
        secrets: inMemorySecrets(),
        clock: systemClock,
        logger: QUIET_LOGGER,
        jobs: runner,
        scheduler: new DueIndexScheduler(
          systemClock,
          async () => undefined,
          () => undefined,
        ),
      });
      let done = 0;
      const handlers: JobHandlers = {
        ...jobHandlers,
        // A queue whose jobs are recorded when sent (the stats queue's are claimed on delivery).
        'cold-messages': {
          schema: z.object({ n: z.number() }),
          run: async () => {
            done += 1;
          },
        },
      };
      runner.start(deliveryOf(deps, handlers, settings));
      const count = 1000;
      const started = performance.now();
      const trips = table.roundTrips;
      await Promise.all(
        Array.from({ length: count }, (_, n) =>
          runner.enqueue({ jobId: `bench-${concurrency}-${n}`, queue: 'cold-messages', orgId: 'org_bench', data: { n } }),
        ),
      );
      await runner.idle();
      const seconds = (performance.now() - started) / 1000;
      if (done !== count) throw new Error(`ran ${done} of ${count} jobs`);
      rows.push({
        benchmark: `no-op jobs, concurrency ${concurrency}`,
        jobs: count,
        seconds: Math.round(seconds * 100) / 100,
        jobs_per_second: Math.round(count / seconds),
        store_calls_per_job: Math.round(((table.roundTrips - trips) / count) * 10) / 10,
      });
      await runner.stop();
    }
  } finally {
    client.destroy();
    await store.close();
  }
  return rows;
}
