import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { STATS_BACKSTOP_MS, statsMessage } from '../../shared/conversations/lifecycle.js';
import { sweepOverdue } from '../../shared/sweep/due-sweep.js';
import { getJob, type JobMessage } from '../../shared/jobs/ledger.js';
import { conversationKey } from '../../shared/conversations/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel, isStatsRequest } from '../support/fake-model.js';

/*
 * The conversation-stats job is written to the ledger by the delivery that claims it
 * (its queue is `claimed-on-delivery`, jobs/ledger-types.ts): counted waiting when sent, active once claimed,
 * completed when its stats are written; one delivery of two runs it; a drain drops it before its
 * claim; and the closed conversation's entry in the due index sends it again if it was lost.
 */

let model: FakeModel;
let t: TestContext;
/** How long a stats reply takes. */
let statsDelayMs = 0;

const statsRequests = () => model.requests.filter(isStatsRequest);
const statsReply = () => ({
  ...toolUseReply(
    [
      {
        name: 'record_conversation_stats',
        input: { sentiment_score: 0.5, resolution_status: 'resolved', category: 'query', summary: 'Asked; answered.' },
      },
    ],
    { input_tokens: 1000, output_tokens: 100 },
  ),
  delayMs: statsDelayMs,
});

beforeAll(async () => {
  model = await startFakeModel();
});
afterAll(async () => {
  await model.stop();
});
beforeEach(async () => {
  model.reset();
  statsDelayMs = 0;
  model.handle((request) => (isStatsRequest(request) ? statsReply() : textReply('An answer.')));
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', JOB_RETRY_BASE_MS: '1' } });
});
afterEach(async () => {
  await t.close();
});

async function statsQueue(cookie: string) {
  const response = await t.request('GET', '/api/org/queues', { cookie });
  expect(response.status, response.text).toBe(200);
  const { name: _, ...counts } = response.body.queues.find((queue: { name: string }) => queue.name === 'conversation-stats');
  return counts;
}

/** A closed conversation whose stats job was sent (counted waiting) but not delivered: the message, held here. */
async function closedWithStatsHeld(cookie: string, workspaceId: string): Promise<{ cid: string; held: JobMessage[] }> {
  const asked = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body: { query: 'Where is it?' } });
  expect(asked.status, asked.text).toBe(200);
  const cid: string = asked.body.conversation_id;
  const held: JobMessage[] = [];
  // The runner's own send, minus the delivery: `enqueue` counts it and hands it to the runner's schedule.
  const runner = t.runner as unknown as { schedule: (message: JobMessage, delayMs: number) => void };
  const original = runner.schedule.bind(runner);
  runner.schedule = (message) => {
    held.push(message);
  };
  try {
    const closed = await t.request('POST', `/api/workspaces/${workspaceId}/conversations/${cid}/close`, { cookie });
    expect(closed.status, closed.text).toBe(200);
  } finally {
    runner.schedule = original;
  }
  return { cid, held };
}

describe('the stats job, written to the ledger by the delivery that claims it', () => {
  it('counts it waiting when sent, then completed; the ledger holds it from its claim only, outside the pending index', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('stats claim');
    const { cid, held } = await closedWithStatsHeld(cookie, workspaceId);
    expect(held).toHaveLength(1);
    expect(held[0]?.sentAt).toBeDefined();
    const jobId = statsMessage(orgId, workspaceId, cid).jobId;
    expect(await getJob(t.deps, jobId)).toBeUndefined();
    expect(await statsQueue(cookie)).toEqual({ waiting: 1, active: 0, completed: 0, failed: 0, delayed: 0 });
    // The closed conversation's entry in the due index: its record until the claim.
    const closed = await t.deps.table.get(conversationKey(orgId, workspaceId, cid), true);
    expect(String(closed?.gsi5pk)).toMatch(/^DUE#stats#\d+$/);

    await t.runner.redeliver(held[0] as JobMessage);
    await t.runner.idle();
    expect(await statsQueue(cookie)).toEqual({ waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
    const job = await getJob(t.deps, jobId);
    expect(job).toMatchObject({ state: 'active', attempts: 1 });
    expect(job).not.toHaveProperty('gsi5pk');
    expect(job?.ttl).toBeGreaterThan(0);
    const after = await t.deps.table.get(conversationKey(orgId, workspaceId, cid), true);
    expect(after).toMatchObject({ stats_status: 'complete' });
    expect(after).not.toHaveProperty('gsi5pk');
    expect(statsRequests()).toHaveLength(1);
  });

  it('runs a job delivered twice at once one time: one model call, counted once', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('stats twice');
    const { held } = await closedWithStatsHeld(cookie, workspaceId);
    statsDelayMs = 300;
    const message = held[0] as JobMessage;
    await Promise.all([t.runner.redeliver(message), t.runner.redeliver(message)]);
    await t.runner.idle();
    expect(statsRequests()).toHaveLength(1);
    expect(await statsQueue(cookie)).toEqual({ waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
    // Delivered again later (SQS delivers at least once), after the claim's lease: nothing to do, nothing counted.
    t.clock.advance(16 * 60_000);
    await t.runner.redeliver(message);
    await t.runner.idle();
    expect(statsRequests()).toHaveLength(1);
    expect(await statsQueue(cookie)).toEqual({ waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
  });

  it('drain removes a job sent but not claimed: it never runs, and the due index does not send it again', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('stats drain');
    const { cid, held } = await closedWithStatsHeld(cookie, workspaceId);
    t.clock.advance(1000);
    const drained = await t.request('POST', '/api/org/queues/conversation-stats/drain', { cookie });
    expect(drained.body).toEqual({ status: 'ok', removed: 1 });
    expect(await statsQueue(cookie)).toEqual({ waiting: 0, active: 0, completed: 0, failed: 0, delayed: 0 });
    await t.runner.redeliver(held[0] as JobMessage);
    await t.runner.idle();
    expect(statsRequests()).toHaveLength(0);
    expect(await getJob(t.deps, statsMessage(orgId, workspaceId, cid).jobId)).toMatchObject({ state: 'removed' });
    expect(await statsQueue(cookie)).toEqual({ waiting: 0, active: 0, completed: 0, failed: 0, delayed: 0 });

    t.clock.advance(STATS_BACKSTOP_MS);
    expect(await sweepOverdue(t.deps)).toBe(0);
    await t.runner.idle();
    expect(statsRequests()).toHaveLength(0);
    const conversation = await t.deps.table.get(conversationKey(orgId, workspaceId, cid), true);
    expect(conversation).toMatchObject({ stats_status: 'pending' });
    expect(conversation).not.toHaveProperty('gsi5pk');
  });

  it('sends a lost job again from the due index once STATS_BACKSTOP_MS has passed, and counts it once', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('stats lost');
    const { cid } = await closedWithStatsHeld(cookie, workspaceId); // never delivered: lost
    t.clock.advance(STATS_BACKSTOP_MS - 1000);
    expect(await sweepOverdue(t.deps)).toBe(0);
    t.clock.advance(1000);
    expect(await sweepOverdue(t.deps)).toBe(1);
    await t.runner.idle();
    expect(statsRequests()).toHaveLength(1);
    expect(await statsQueue(cookie)).toEqual({ waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
    const conversation = await t.deps.table.get(conversationKey(orgId, workspaceId, cid), true);
    expect(conversation).toMatchObject({ stats_status: 'complete' });
    expect(conversation).not.toHaveProperty('gsi5pk');
    // Nothing is left to send.
    t.clock.advance(STATS_BACKSTOP_MS);
    expect(await sweepOverdue(t.deps)).toBe(0);
  });

  it('a failure goes on through the ledger: recorded delayed from its claim, retried, completed and counted once', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('stats retry');
    let failures = 1;
    model.handle((request) => {
      if (!isStatsRequest(request)) return textReply('An answer.');
      if (failures-- > 0) return textReply('no tool call');
      return statsReply();
    });
    const { cid, held } = await closedWithStatsHeld(cookie, workspaceId);
    await t.runner.redeliver(held[0] as JobMessage);
    await t.runner.idle();
    await new Promise((resolve) => setTimeout(resolve, 50));
    await t.runner.idle();
    expect(statsRequests()).toHaveLength(2);
    expect(await getJob(t.deps, statsMessage(orgId, workspaceId, cid).jobId)).toMatchObject({ state: 'completed', attempts: 2 });
    expect(await statsQueue(cookie)).toEqual({ waiting: 0, active: 0, completed: 1, failed: 0, delayed: 0 });
  });
});
