import type { Context, SQSBatchResponse, SQSEvent } from 'aws-lambda';
import { createAgentProcessParts } from '../../shared/wiring/agent-parts.js';
import { SCHEDULE_GRACE_MS, sweepOverdue } from '../../shared/sweep/due-sweep.js';
import { redeliverStuckJobs } from '../../shared/jobs/ops.js';
import { handleSqsBatch } from '../../shared/jobs/sqs.js';
import { flushedAfter } from '../../shared/platform/metrics.js';
import { createAwsDeps } from '../../shared/wiring/aws-deps.js';
import { jobHandlers } from '../../shared/wiring/job-handlers.js';

// Built once per container. The statistics job and an evaluation's case call the model, and an
// approval's expiry runs its query on (the model and the MCP servers), so the agent's clients are wired.
const { config, deps, sqs, queueUrls, telemetry } = await createAwsDeps(process.env, {
  needsSession: false,
  // Cold notices and expired approvals post with the organisation's bot token.
  extra: createAgentProcessParts,
});
const urls = Object.values(queueUrls).filter((url): url is string => !!url);
const queueUrlOf = (arn: string | undefined) => urls.find((url) => arn !== undefined && url.endsWith(`/${arn.split(':').at(-1)}`));
const settings = { maxAttempts: config.jobMaxAttempts, retryBaseMs: config.jobRetryBaseMs };

/** The periodic sweep arrives on the lifecycle queue as `{ "kind": "sweep" }`, sent by a rate schedule. */
async function onOtherMessage(body: unknown): Promise<void> {
  if (typeof body === 'object' && body !== null && (body as { kind?: unknown }).kind === 'sweep') {
    // What fell due in the last minute is its schedule's to send.
    await sweepOverdue(deps, new Date(deps.clock.now().getTime() - SCHEDULE_GRACE_MS));
    await redeliverStuckJobs(deps);
  }
}

// The batch's metrics (job outcomes, expired approvals, resumed queries) are written out once it is done.
export const handler = flushedAfter(
  telemetry,
  (event: SQSEvent, context?: Context): Promise<SQSBatchResponse> =>
    handleSqsBatch(deps, jobHandlers, settings, sqs, queueUrlOf, event, { onOtherMessage, context }),
);
