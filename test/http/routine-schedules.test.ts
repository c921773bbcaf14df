import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type { JobMessage } from '../../shared/jobs/ledger.js';
import { nextRunAfter } from '../../shared/routines/schedule.js';
import { sendDueMoves } from '../../shared/sweep/due-sweep.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  model = await startFakeModel();
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await model.stop();
});
beforeEach(() => {
  model.reset();
  model.handle(() => textReply('Checked.'));
});

async function scheduled(schedule: string, timezone = 'UTC') {
  const admin = await t.adminWithWorkspace('Scheduled');
  const body = { name: 'Check', prompt: 'Check the queue.', trigger: { schedule, timezone } };
  const response = await t.request('POST', `/api/workspaces/${admin.workspaceId}/routines`, { cookie: admin.cookie, body });
  expect(response.status, response.text).toBe(201);
  return { ...admin, routine: response.body.routine };
}

async function runsOf(cookie: string, workspaceId: string, routineId: string) {
  return (await t.request('GET', `/api/workspaces/${workspaceId}/routines/${routineId}/runs`, { cookie })).body.runs as any[];
}

/** The local scheduler's wake-up at the test clock's now, and the jobs it sent run. */
async function wake() {
  await sendDueMoves(t.deps, t.clock.now());
  await t.runner.idle();
}

describe('routine schedules (locally: the due index and the same sweep as the conversation lifecycle)', () => {
  it('runs at its due time, once, and moves to its next time', async () => {
    t.clock.set('2026-11-22T10:00:30.000Z');
    const { cookie, workspaceId, routine } = await scheduled('*/5 * * * *');
    expect(routine.next_run_at).toBe('2026-11-22T10:05:00.000Z');
    t.clock.set('2026-11-22T10:04:59.000Z');
    await wake();
    expect(await runsOf(cookie, workspaceId, routine.id)).toEqual([]);
    t.clock.set('2026-11-22T10:05:00.500Z');
    await wake();
    await wake();
    const runs = await runsOf(cookie, workspaceId, routine.id);
    expect(runs).toHaveLength(1);
    expect(runs[0]).toMatchObject({ trigger: 'schedule', scheduled_at: '2026-11-22T10:05:00.000Z', status: 'done' });
    const after = await t.request('GET', `/api/workspaces/${workspaceId}/routines/${routine.id}`, { cookie });
    expect(after.body.routine.next_run_at).toBe('2026-11-22T10:10:00.000Z');
  });

  it('runs a time fired twice (the EventBridge schedule and the sweep, or a schedule delivered twice) once', async () => {
    t.clock.set('2026-11-22T11:00:10.000Z');
    const { cookie, workspaceId, routine } = await scheduled('* * * * *');
    // What EventBridge's schedule sends at 11:01, delivered twice, and the sweep as well.
    const message = t.scheduler.pending.get(`routine-${routine.id}`)?.message;
    expect(message?.data).toMatchObject({ scheduledAt: '2026-11-22T11:01:00.000Z' });
    t.clock.set('2026-11-22T11:01:00.200Z');
    await Promise.all([
      t.runner.enqueue(message as JobMessage),
      t.runner.enqueue({ ...(message as JobMessage), jobId: `${message?.jobId}-again` }),
    ]);
    await t.runner.idle();
    await wake();
    const runs = await runsOf(cookie, workspaceId, routine.id);
    expect(runs).toHaveLength(1);
    expect(runs[0].scheduled_at).toBe('2026-11-22T11:01:00.000Z');
    // The schedule moved on to the next minute, by the firing that moved the routine.
    expect(t.scheduler.pending.get(`routine-${routine.id}`)?.at.toISOString()).toBe('2026-11-22T11:02:00.000Z');
  });

  it('gives two routines of one workspace due at the same time a conversation each', async () => {
    t.clock.set('2026-11-22T14:00:10.000Z');
    const { cookie, workspaceId, routine } = await scheduled('*/5 * * * *');
    const body = { name: 'Other check', prompt: 'Check the other queue.', trigger: { schedule: '*/5 * * * *' } };
    const other = await t.request('POST', `/api/workspaces/${workspaceId}/routines`, { cookie, body });
    expect(other.status, other.text).toBe(201);
    t.clock.set('2026-11-22T14:05:00.500Z');
    await wake();
    const [first] = await runsOf(cookie, workspaceId, routine.id);
    const [second] = await runsOf(cookie, workspaceId, other.body.routine.id);
    expect(first.conversation_id).not.toBe(second.conversation_id);
    // Each run's conversation is the one its query wrote: its own prompt, not the other's.
    for (const [run, prompt] of [
      [first, 'Check the queue.'],
      [second, 'Check the other queue.'],
    ] as const) {
      const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${run.conversation_id}`, { cookie });
      expect(conversation.status, conversation.text).toBe(200);
      expect(conversation.body.messages[0].content).toContain(prompt);
    }
  });

  it('after downtime, starts a missed run once at start, not once per missed minute', async () => {
    t.clock.set('2026-11-22T12:00:10.000Z');
    const { cookie, workspaceId, routine } = await scheduled('* * * * *');
    // The runtime was down for three hours: 180 times went by.
    t.clock.set('2026-11-22T15:00:30.000Z');
    await wake();
    await wake();
    const runs = await runsOf(cookie, workspaceId, routine.id);
    expect(runs).toHaveLength(1);
    expect(runs[0].scheduled_at).toBe('2026-11-22T12:01:00.000Z');
    const after = await t.request('GET', `/api/workspaces/${workspaceId}/routines/${routine.id}`, { cookie });
    expect(after.body.routine.next_run_at).toBe('2026-11-22T15:01:00.000Z');
  });

  it('does not run a paused routine, and runs it again once resumed', async () => {
    t.clock.set('2026-11-22T13:00:10.000Z');
    const { cookie, workspaceId, routine } = await scheduled('* * * * *');
    await t.request('PUT', `/api/workspaces/${workspaceId}/routines/${routine.id}`, { cookie, body: { enabled: false } });
    t.clock.set('2026-11-22T13:05:00.000Z');
    await wake();
    expect(await runsOf(cookie, workspaceId, routine.id)).toEqual([]);
    await t.request('PUT', `/api/workspaces/${workspaceId}/routines/${routine.id}`, { cookie, body: { enabled: true } });
    t.clock.set('2026-11-22T13:06:00.000Z');
    await wake();
    expect(await runsOf(cookie, workspaceId, routine.id)).toHaveLength(1);
  });
});

describe('schedule expressions', () => {
  it('reads cron in its time zone across a daylight-saving change, and a rate from its anchor', () => {
    const paris = { schedule: '30 8 * * 1-5', timezone: 'Europe/Paris' };
    // Friday 27 March 2026 08:30 in Paris is 07:30Z (CET); Monday 30 March, after the change, 06:30Z (CEST).
    const anchor = new Date('2026-03-27T00:00:00Z');
    expect(nextRunAfter(paris, anchor, new Date('2026-03-27T00:00:00Z'))?.toISOString()).toBe('2026-03-27T07:30:00.000Z');
    expect(nextRunAfter(paris, anchor, new Date('2026-03-27T08:00:00Z'))?.toISOString()).toBe('2026-03-30T06:30:00.000Z');
    const rate = { schedule: 'rate(90 minutes)', timezone: 'UTC' };
    expect(nextRunAfter(rate, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T03:00:00Z'))?.toISOString()).toBe(
      '2026-01-01T04:30:00.000Z',
    );
  });

  it('reads day-of-week ranges and steps as Unix cron does (croner alone computes every time, on AWS too)', () => {
    const anchor = new Date('2026-11-01T00:00:00.000Z');
    // Friday to Sunday, Sunday written 7: Sunday 29 November 11:00 → Friday 4 December.
    const weekend = { schedule: '0 10 * * 5-7', timezone: 'UTC' };
    expect(nextRunAfter(weekend, anchor, new Date('2026-11-29T11:00:00.000Z'))?.toISOString()).toBe('2026-12-04T10:00:00.000Z');
    expect(nextRunAfter(weekend, anchor, new Date('2026-11-28T11:00:00.000Z'))?.toISOString()).toBe('2026-11-29T10:00:00.000Z');
    // Every other day of the week from Sunday (0, 2, 4, 6): Wednesday 25 November → Thursday 26.
    const everyOther = { schedule: '0 7 * * */2', timezone: 'UTC' };
    expect(nextRunAfter(everyOther, anchor, new Date('2026-11-25T08:00:00.000Z'))?.toISOString()).toBe('2026-11-26T07:00:00.000Z');
  });
});
