import { sweepOverdue } from '../../shared/conversations/lifecycle.js';
import { createDeps, type Deps } from '../../shared/deps.js';
import { createAwsJobs, queueUrlsOf } from '../../shared/jobs/aws.js';
import { jobHandlers } from '../../shared/jobs/handlers.js';
import { redeliverStuckJobs } from '../../shared/jobs/ops.js';
import { handleSqsBatch, type SqsEvent } from '../../shared/jobs/sqs.js';
import { systemClock } from '../../shared/platform/clock.js';
import { parseConfig } from '../../shared/platform/config.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { createLogger } from '../../shared/platform/logger.js';
import { Table } from '../../shared/platform/table.js';

// Built once per container; SDK clients live outside the handler.
const config = parseConfig(process.env, 'aws');
let deps: Deps | undefined;
const { sqs, jobs, scheduler } = createAwsJobs(config, () => deps as Deps);
deps = createDeps({
  config,
  table: new Table(createDynamoClient(config), config.tableName, systemClock),
  clock: systemClock,
  logger: createLogger(config),
  jobs,
  scheduler,
});
const urls = Object.values(queueUrlsOf(config));
const queueUrlOf = (arn: string | undefined) => urls.find((url) => arn && url.endsWith(`/${arn.split(':').at(-1)}`));
const settings = { maxAttempts: config.jobMaxAttempts, retryBaseMs: config.jobRetryBaseMs };

/** The periodic sweep arrives on the lifecycle queue as `{ "kind": "sweep" }` (sent by a rate schedule). */
async function onOtherMessage(body: unknown): Promise<void> {
  if (typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'sweep') {
    await sweepOverdue(deps as Deps);
    await redeliverStuckJobs(deps as Deps);
  }
}

export const handler = (event: SqsEvent) => handleSqsBatch(deps as Deps, jobHandlers, settings, sqs, queueUrlOf, event, { onOtherMessage });
