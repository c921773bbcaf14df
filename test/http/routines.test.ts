import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { provisionedUserUpdate } from '../../shared/org/entities.js';
import { MAX_ROUTINES_PER_ORG } from '../../shared/routines/schemas.js';
import type { TestContext } from '../support/context.js';
import { textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import {
  bindChannel,
  createRoutine as postRoutine,
  requireApprovals,
  routinesPath,
  runsOf as listRuns,
  startRoutineRig,
  type RoutineRig,
} from '../support/routines.js';

let rig: RoutineRig;
let t: TestContext;
let model: FakeModel;

beforeAll(async () => {
  rig = await startRoutineRig();
  ({ t, model } = rig);
});
afterAll(async () => {
  await rig.close();
});
beforeEach(() => {
  model.reset();
  rig.received.length = 0;
  rig.created.length = 0;
});

const daily = { name: 'Daily summary', prompt: 'Summarise yesterday.', trigger: { schedule: '0 8 * * *', timezone: 'Europe/Paris' } };
const createRoutine = (cookie: string, workspaceId: string, body: Record<string, unknown> = daily) =>
  postRoutine(t, cookie, workspaceId, body);
const runsOf = (cookie: string, workspaceId: string, routineId: string) => listRuns(t, cookie, workspaceId, routineId);

describe('routines: the admin API', () => {
  it('creates a scheduled routine with its next run in its time zone, lists, reads, changes and deletes it', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Routines');
    const { routine, secret } = await createRoutine(cookie, workspaceId);
    expect(secret).toBeUndefined();
    // The clock is at 2026-11-22T10:00Z; 08:00 in Paris (UTC+1 in November) is 07:00Z the next day.
    expect(routine).toMatchObject({
      name: 'Daily summary',
      trigger: { schedule: '0 8 * * *', timezone: 'Europe/Paris' },
      deliver_to: { channel: false, webhook_url: null },
      run_as: null,
      enabled: true,
      next_run_at: '2026-11-23T07:00:00.000Z',
      hook_path: null,
      last_run: null,
    });
    const listed = await t.request('GET', routinesPath(workspaceId), { cookie });
    expect(listed.body.routines.map((item: { id: string }) => item.id)).toEqual([routine.id]);
    const changed = await t.request('PUT', `${routinesPath(workspaceId)}/${routine.id}`, {
      cookie,
      body: { trigger: { schedule: 'rate(2 hours)' }, enabled: false },
    });
    expect(changed.status, changed.text).toBe(200);
    expect(changed.body.routine).toMatchObject({
      trigger: { schedule: 'rate(2 hours)', timezone: 'UTC' },
      enabled: false,
      next_run_at: null,
    });
    const resumed = await t.request('PUT', `${routinesPath(workspaceId)}/${routine.id}`, { cookie, body: { enabled: true } });
    expect(resumed.body.routine.next_run_at).toBe('2026-11-22T12:00:00.000Z');
    // On AWS: one EventBridge schedule per routine, at its next run (computed here, by croner), kept
    // after it fires to be moved on; changed with the routine, gone with it.
    const schedule = t.scheduler.pending.get(`routine-${routine.id}`);
    expect(schedule?.at.toISOString()).toBe('2026-11-22T12:00:00.000Z');
    expect(schedule?.message.data).toMatchObject({ move: 'fire-routine', routineId: routine.id, scheduledAt: '2026-11-22T12:00:00.000Z' });
    expect(t.scheduler.calls.filter((call) => call.name === `routine-${routine.id}`).every((call) => call.kept && call.replaces)).toBe(
      true,
    );
    const removed = await t.request('DELETE', `${routinesPath(workspaceId)}/${routine.id}`, { cookie });
    expect(removed.status).toBe(200);
    expect(t.scheduler.pending.has(`routine-${routine.id}`)).toBe(false);
    expect((await t.request('GET', `${routinesPath(workspaceId)}/${routine.id}`, { cookie })).status).toBe(404);
  });

  it('refuses bad input with the field named, and writes nothing', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Routines');
    const bad = [
      [{ ...daily, trigger: { schedule: '* * * * * *' } }, 'trigger'],
      [{ ...daily, trigger: { schedule: 'rate(0 minutes)' } }, 'trigger'],
      [{ ...daily, trigger: { schedule: 'rate(30 seconds)' } }, 'trigger'],
      [{ ...daily, trigger: { schedule: '0 8 * * *', timezone: 'Mars/Olympus' } }, 'trigger'],
      [{ ...daily, trigger: { schedule: '0 8 1 * 1' } }, 'trigger'],
      // Shaped like cron, but croner reads no hour 25; and a 30 February never comes.
      [{ ...daily, trigger: { schedule: '0 25 * * *' } }, 'trigger.schedule'],
      [{ ...daily, trigger: { schedule: '0 0 30 2 *' } }, 'trigger.schedule'],
      [{ ...daily, deliver_to: { webhook_url: 'ftp://example.com/x' } }, 'deliver_to.webhook_url'],
      [{ ...daily, deliver_to: { webhook_url: 'https://user:pw@example.com/x' } }, 'deliver_to.webhook_url'],
      [{ ...daily, run_as: 'usr_not_here' }, 'run_as'],
      [{ ...daily, prompt: '' }, 'prompt'],
    ] as const;
    for (const [body, path] of bad) {
      const response = await t.request('POST', routinesPath(workspaceId), { cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details.map((detail: { path: string }) => detail.path).join(' ')).toContain(path);
    }
    expect((await t.request('GET', routinesPath(workspaceId), { cookie })).body.routines).toEqual([]);
  });

  it('is for admins: a member creating, reading or running a routine is refused (403)', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Routines');
    const { routine } = await createRoutine(cookie, workspaceId);
    const member = await t.addMember(cookie);
    expect((await t.request('POST', routinesPath(workspaceId), { cookie: member.cookie, body: daily })).status).toBe(403);
    expect((await t.request('GET', routinesPath(workspaceId), { cookie: member.cookie })).status).toBe(403);
    expect((await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie: member.cookie })).status).toBe(403);
  });

  it("answers another organisation's routine by id as not found, in every route", async () => {
    const owner = await t.adminWithWorkspace('Owner');
    const { routine } = await createRoutine(owner.cookie, owner.workspaceId);
    const other = await t.adminWithWorkspace('Other');
    for (const workspaceId of [other.workspaceId, owner.workspaceId]) {
      const base = `${routinesPath(workspaceId)}/${routine.id}`;
      expect((await t.request('GET', base, { cookie: other.cookie })).status).toBe(404);
      expect((await t.request('PUT', base, { cookie: other.cookie, body: { name: 'Mine now' } })).status).toBe(404);
      expect((await t.request('POST', `${base}/run`, { cookie: other.cookie })).status).toBe(404);
      expect((await t.request('GET', `${base}/runs`, { cookie: other.cookie })).status).toBe(404);
      expect((await t.request('DELETE', base, { cookie: other.cookie })).status).toBe(404);
    }
    expect((await t.request('GET', `${routinesPath(owner.workspaceId)}/${routine.id}`, { cookie: owner.cookie })).body.routine.name).toBe(
      'Daily summary',
    );
  });

  it(`bounds an organisation to ${MAX_ROUTINES_PER_ORG} routines: 1 000 every-minute routines are refused past it (409)`, async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Many');
    const everyMinute = { name: 'Tick', prompt: 'tick', trigger: { schedule: '* * * * *' } };
    const statuses: number[] = [];
    for (let at = 0; at < 1_000; at += 50) {
      const batch = Array.from({ length: 50 }, () => t.request('POST', routinesPath(workspaceId), { cookie, body: everyMinute }));
      statuses.push(...(await Promise.all(batch)).map((response) => response.status));
      if (statuses.filter((status) => status === 409).length >= 100) break;
    }
    expect(statuses.filter((status) => status === 201)).toHaveLength(MAX_ROUTINES_PER_ORG);
    expect(new Set(statuses)).toEqual(new Set([201, 409]));
    const listed = await t.request('GET', routinesPath(workspaceId), { cookie });
    expect(listed.body.routines).toHaveLength(MAX_ROUTINES_PER_ORG);
    // A deleted routine gives its place back.
    await t.request('DELETE', `${routinesPath(workspaceId)}/${listed.body.routines[0].id}`, { cookie });
    expect((await t.request('POST', routinesPath(workspaceId), { cookie, body: everyMinute })).status).toBe(201);
  });
});

describe('routines: runs', () => {
  it('runs now: a queued run, then done with its cost and conversation, whose transcript is the routine’s', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Run now');
    const { routine } = await createRoutine(cookie, workspaceId);
    model.reply(textReply('Yesterday: 3 failed orders.'));
    const started = await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie });
    expect(started.status, started.text).toBe(202);
    expect(started.body.run).toMatchObject({ trigger: 'manual', status: 'queued', started_by: expect.any(String) });
    await t.runner.idle();
    const [run] = await runsOf(cookie, workspaceId, routine.id);
    expect(run).toMatchObject({
      id: started.body.run.id,
      status: 'done',
      error: null,
      conversation_id: `routine-${routine.id}-${started.body.run.id}`,
    });
    expect(run.cost_usd).toBeGreaterThan(0);
    expect(run.finished_at).not.toBeNull();
    expect(JSON.stringify(model.requests.at(-1)?.body.messages.at(-1)?.content)).toContain('Summarise yesterday.');
    const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${run.conversation_id}`, { cookie });
    expect(conversation.status, conversation.text).toBe(200);
    expect(conversation.body.messages.map((message: { content: string }) => message.content)).toEqual([
      'Summarise yesterday.',
      'Yesterday: 3 failed orders.',
    ]);
    const shown = await t.request('GET', `${routinesPath(workspaceId)}/${routine.id}`, { cookie });
    expect(shown.body.routine.last_run).toMatchObject({ id: run.id, status: 'done' });
  });

  it('delivers the answer to its webhook URL (sealed at rest) and its bound channel', async () => {
    const { cookie, workspaceId, orgId } = await t.adminWithWorkspace('Delivered');
    await bindChannel(t, { orgId, workspaceId, channelId: 'C-OPS', workspaceName: 'Delivered' });
    const { routine } = await createRoutine(cookie, workspaceId, {
      ...daily,
      deliver_to: { channel: true, webhook_url: `${rig.receiverOrigin}/inbox?token=abc` },
    });
    expect(routine.deliver_to.webhook_url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/••••••••$/);
    model.reply(textReply('All quiet.'));
    await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie });
    await t.runner.idle();
    expect(rig.received).toEqual([
      {
        path: '/inbox?token=abc',
        body: expect.objectContaining({ type: 'routine_run', answer: 'All quiet.', routine: expect.objectContaining({ id: routine.id }) }),
      },
    ]);
    expect(t.chat.posts.filter((post) => post.channelId === 'C-OPS').map((post) => post.text)).toEqual([
      'Routine "Daily summary":\nAll quiet.',
    ]);
    const stored = JSON.stringify(await t.scanTable());
    expect(stored).not.toContain('token=abc');
  });

  it('fails a run of a deactivated run_as person with a clear reason, without asking the model', async () => {
    const { cookie, workspaceId, orgId } = await t.adminWithWorkspace('Run as');
    const member = await t.addMember(cookie, { name: 'Rita Runner' });
    const { routine } = await createRoutine(cookie, workspaceId, { ...daily, run_as: member.user.id });
    expect(routine.run_as).toBe(member.user.id);
    const fields = { email: member.user.email, name: 'Rita Runner', given_name: null, family_name: null, external_id: null, active: false };
    const { key, input } = provisionedUserUpdate(orgId, member.user.id, fields, t.clock.now().toISOString());
    await t.deps.table.update(key, input);
    const calls = model.requests.length;
    await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie });
    await t.runner.idle();
    const [run] = await runsOf(cookie, workspaceId, routine.id);
    expect(run.status).toBe('failed');
    expect(run.error).toMatch(/Rita Runner .* is deactivated: it does not run/);
    expect(model.requests.length).toBe(calls);
    // Nor can it be named again while deactivated.
    const renamed = await t.request('PUT', `${routinesPath(workspaceId)}/${routine.id}`, { cookie, body: { run_as: member.user.id } });
    expect(renamed.status).toBe(400);
  });

  /**
   * The run's status write after its query fails once, as a process ending or the store refusing
   * it would: the job fails that attempt and the queue tries it again (JOB_RETRY_BASE_MS later).
   */
  function failStatusWriteOnce(routineId: string, status: string) {
    const update = t.deps.table.update.bind(t.deps.table);
    let failed = false;
    return vi.spyOn(t.deps.table, 'update').mockImplementation(async (key, input) => {
      if (!failed && key.pk === `ROUTINERUN#${routineId}` && Object.values(input.values ?? {}).includes(status)) {
        failed = true;
        throw new Error('store unreachable');
      }
      return update(key, input);
    });
  }

  /** The routine's only run, once it is neither queued nor running (the retried job is ~1 s later). */
  async function settledRun(cookie: string, workspaceId: string, routineId: string) {
    const status = async () => (await runsOf(cookie, workspaceId, routineId))[0]?.status;
    await expect.poll(status, { timeout: 15_000 }).toMatch(/^(done|failed|waiting_approval)$/);
    await t.runner.idle();
    const runs = await runsOf(cookie, workspaceId, routineId);
    expect(runs).toHaveLength(1);
    return runs[0];
  }

  it('a job tried again after its query was answered does not ask the model again: the run ends done from the stored answer', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Retried');
    const { routine } = await createRoutine(cookie, workspaceId, {
      ...daily,
      deliver_to: { webhook_url: `${rig.receiverOrigin}/retried` },
    });
    const spy = failStatusWriteOnce(routine.id, 'done');
    try {
      model.reply(textReply('Answered once.'), textReply('Answered twice!'));
      await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie });
      const run = await settledRun(cookie, workspaceId, routine.id);
      expect(model.requests).toHaveLength(1);
      expect(run).toMatchObject({ status: 'done', error: null, started_at: expect.any(String), finished_at: expect.any(String) });
      const conversation = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${run.conversation_id}`, { cookie });
      const messages = conversation.body.messages as { content: string; cost_usd: number | null }[];
      expect(messages.map((message) => message.content)).toEqual(['Summarise yesterday.', 'Answered once.']);
      expect(run.cost_usd).toBeGreaterThan(0);
      expect(run.cost_usd).toBe(messages[1]?.cost_usd);
      expect(run.duration_ms).not.toBeNull();
      expect(rig.received).toEqual([{ path: '/retried', body: expect.objectContaining({ answer: 'Answered once.' }) }]);
    } finally {
      spy.mockRestore();
    }
  });

  it('a job tried again after its query paused for an approval does not ask again: the run waits on that approval', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Retried pause');
    await t.connectMcp(cookie, workspaceId, { name: 'tickets', url: rig.tickets.url });
    await requireApprovals(t, cookie, workspaceId, 'requester');
    const { routine } = await createRoutine(cookie, workspaceId, { ...daily, prompt: 'Open a ticket if anything failed.' });
    const spy = failStatusWriteOnce(routine.id, 'waiting_approval');
    try {
      model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'failed orders' } }]));
      await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie });
      const run = await settledRun(cookie, workspaceId, routine.id);
      expect(model.requests).toHaveLength(1);
      const pending = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie });
      expect(pending.body.approvals).toHaveLength(1);
      expect(run).toMatchObject({ status: 'waiting_approval', approval_id: pending.body.approvals[0].id, finished_at: null });
      expect(rig.created).toEqual([]);
    } finally {
      spy.mockRestore();
    }
  });

  it('pauses a run on a write tool that needs approval (waiting_approval), asking the admins (what follows a decision: routine-approvals.test.ts)', async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Approval');
    await t.connectMcp(cookie, workspaceId, { name: 'tickets', url: rig.tickets.url });
    await requireApprovals(t, cookie, workspaceId, 'requester');
    const { routine } = await createRoutine(cookie, workspaceId, { ...daily, prompt: 'Open a ticket if anything failed.' });
    model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'failed orders' } }]));
    await t.request('POST', `${routinesPath(workspaceId)}/${routine.id}/run`, { cookie });
    await t.runner.idle();
    const [waiting] = await runsOf(cookie, workspaceId, routine.id);
    expect(waiting).toMatchObject({ status: 'waiting_approval', approval_id: expect.stringMatching(/^appr_/) });
    expect(rig.created).toEqual([]);
    // A routine's approval goes to the admins (nobody is its "requester").
    const pending = await t.request('GET', `/api/workspaces/${workspaceId}/approvals?status=pending`, { cookie });
    expect(pending.body.approvals[0]).toMatchObject({ id: waiting.approval_id, approvers: 'admins' });
  });
});
