import { createHmac } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_KEEP_OLD_SECRET_MINUTES } from '../../shared/routines/schemas.js';
import type { TestContext } from '../support/context.js';
import { createRoutine, routinesPath, startRoutineRig, type RoutineRig } from '../support/routines.js';

/*
 * `POST /api/workspaces/:id/routines/:routine_id/secret` (docs/routines.md, "Webhooks";
 * docs/api-decisions.md, "Routines"): a webhook routine's new secret, answered once; the old one
 * stops verifying at once, or after `keep_old_for_minutes`.
 */

let rig: RoutineRig;
let t: TestContext;

beforeAll(async () => {
  rig = await startRoutineRig();
  ({ t } = rig);
});
afterAll(async () => {
  await t.runner.idle();
  await rig.close();
});

const triage = { name: 'Triage', prompt: 'Triage the new ticket below.', trigger: { webhook: true } };
let deliveries = 0;

async function webhookRoutine(label: string) {
  const admin = await t.adminWithWorkspace(label);
  const { routine, secret } = await createRoutine(t, admin.cookie, admin.workspaceId, triage);
  const path = `${routinesPath(admin.workspaceId)}/${routine.id}`;
  return { ...admin, routine, secret: secret as string, path };
}

/** A delivery signed with `secret` as the contract says (over `<timestamp>.<body>`): its status. */
async function fire(routineId: string, secret: string): Promise<number> {
  deliveries += 1;
  const body = JSON.stringify({ ticket: deliveries });
  const timestamp = String(Math.floor(t.clock.now().getTime() / 1000));
  const signature = `sha256=${createHmac('sha256', secret).update(`${timestamp}.${body}`).digest('hex')}`;
  const headers = {
    'content-type': 'application/json',
    'x-timestamp': timestamp,
    'x-signature-256': signature,
    'x-delivery-id': `rotation-${deliveries}`,
  };
  return (await t.request('POST', `/hooks/routines/${routineId}`, { raw: body, headers })).status;
}

/** GitHub's form: the raw body alone signed. */
async function fireAsGitHub(routineId: string, secret: string): Promise<number> {
  deliveries += 1;
  const body = JSON.stringify({ action: 'opened', n: deliveries });
  const headers = {
    'content-type': 'application/json',
    'x-hub-signature-256': `sha256=${createHmac('sha256', secret).update(body).digest('hex')}`,
    'x-github-delivery': `gh-rotation-${deliveries}`,
  };
  return (await t.request('POST', `/hooks/routines/${routineId}`, { raw: body, headers })).status;
}

describe('POST …/routines/:routine_id/secret', () => {
  it('answers a new secret once, which signs; the old one stops verifying at once', async () => {
    const { cookie, routine, secret: old, path } = await webhookRoutine('Rotate now');
    expect(await fire(routine.id, old)).toBe(202);

    // No body at all: the old secret is kept for 0 minutes.
    const rotated = await t.request('POST', `${path}/secret`, { cookie });
    expect(rotated.status, rotated.text).toBe(200);
    const secret = rotated.body.secret as string;
    expect(secret).toMatch(/^whsec_/);
    expect(secret).not.toBe(old);
    expect(rotated.body.routine).toMatchObject({ id: routine.id, hook_path: `/hooks/routines/${routine.id}`, trigger: { webhook: true } });
    expect(rotated.text.match(/whsec_/g)).toHaveLength(1);

    expect(await fire(routine.id, secret)).toBe(202);
    expect(await fireAsGitHub(routine.id, secret)).toBe(202);
    expect(await fire(routine.id, old)).toBe(401);
    expect(await fireAsGitHub(routine.id, old)).toBe(401);

    // Never in a read, nor in the table in plaintext (sealed like the first).
    for (const read of [
      await t.request('GET', path, { cookie }),
      await t.request('GET', routinesPath(rotated.body.routine.workspace_id), { cookie }),
    ]) {
      expect(read.status).toBe(200);
      expect(read.text).not.toContain(secret);
      expect(read.text).not.toContain('whsec_');
    }
    const table = JSON.stringify(await t.scanTable());
    expect(table).not.toContain(secret);
    expect(table).not.toContain(old);

    // An explicit 0 is the same.
    const again = await t.request('POST', `${path}/secret`, { cookie, body: { keep_old_for_minutes: 0 } });
    expect(again.status, again.text).toBe(200);
    expect(await fire(routine.id, secret)).toBe(401);
    expect(await fire(routine.id, again.body.secret)).toBe(202);
  });

  it('keeps the old secret verifying for keep_old_for_minutes, both at once, then not', async () => {
    const { cookie, routine, secret: old, path } = await webhookRoutine('Rotate with grace');
    const rotated = await t.request('POST', `${path}/secret`, { cookie, body: { keep_old_for_minutes: 30 } });
    expect(rotated.status, rotated.text).toBe(200);
    const secret = rotated.body.secret as string;
    expect(await fire(routine.id, old)).toBe(202);
    expect(await fireAsGitHub(routine.id, old)).toBe(202);
    expect(await fire(routine.id, secret)).toBe(202);

    t.clock.advance(29 * 60_000);
    expect(await fire(routine.id, old)).toBe(202);
    t.clock.advance(60_000);
    expect(await fire(routine.id, old)).toBe(401);
    expect(await fireAsGitHub(routine.id, old)).toBe(401);
    expect(await fire(routine.id, secret)).toBe(202);
    expect(JSON.stringify(await t.scanTable())).not.toContain(old);
  });

  it('a rotation during a grace ends the grace of the secret before (only the last one replaced is kept)', async () => {
    const { cookie, routine, secret: first, path } = await webhookRoutine('Rotate twice');
    const second = (await t.request('POST', `${path}/secret`, { cookie, body: { keep_old_for_minutes: 60 } })).body.secret as string;
    const third = (await t.request('POST', `${path}/secret`, { cookie, body: { keep_old_for_minutes: 60 } })).body.secret as string;
    expect(await fire(routine.id, first)).toBe(401);
    expect(await fire(routine.id, second)).toBe(202);
    expect(await fire(routine.id, third)).toBe(202);
  });

  it('of two rotations at once, one is answered (200) and the other is 409, so no secret shown is one that never worked', async () => {
    const { cookie, routine, path } = await webhookRoutine('Rotate at once');
    const answers = await Promise.all([1, 2].map(() => t.request('POST', `${path}/secret`, { cookie })));
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    const won = answers.find((answer) => answer.status === 200)!;
    const lost = answers.find((answer) => answer.status === 409)!;
    expect(lost.text).not.toContain('whsec_');
    expect(await fire(routine.id, won.body.secret)).toBe(202);
  });

  it('refuses a member (403), another organisation (404), a scheduled routine (400) and bad bodies (400)', async () => {
    const { cookie, routine, secret, path } = await webhookRoutine('Rotate guarded');
    const member = await t.addMember(cookie);
    const byMember = await t.request('POST', `${path}/secret`, { cookie: member.cookie });
    expect(byMember.status).toBe(403);

    const stranger = await t.adminWithWorkspace('Rotate stranger');
    // Their own workspace's path with our routine's id, and ours: 404 either way, as a missing routine.
    for (const other of [`${routinesPath(stranger.workspaceId)}/${routine.id}/secret`, `${path}/secret`]) {
      const response = await t.request('POST', other, { cookie: stranger.cookie });
      expect(response.status, other).toBe(404);
      expect(response.text).not.toContain('whsec_');
    }

    const scheduled = await createRoutine(t, cookie, routine.workspace_id, {
      name: 'Daily',
      prompt: 'Summarise.',
      trigger: { schedule: '0 8 * * *' },
    });
    const refused = await t.request('POST', `${routinesPath(routine.workspace_id)}/${scheduled.routine.id}/secret`, { cookie });
    expect(refused.status, refused.text).toBe(400);
    expect(refused.body).toMatchObject({ error: expect.stringContaining('no webhook'), details: [{ path: 'trigger' }] });

    for (const body of [
      { keep_old_for_minutes: -1 },
      { keep_old_for_minutes: MAX_KEEP_OLD_SECRET_MINUTES + 1 },
      { keep_old_for_minutes: 1.5 },
      { other: 1 },
    ]) {
      const response = await t.request('POST', `${path}/secret`, { cookie, body });
      expect(response.status, JSON.stringify(body)).toBe(400);
      expect(response.body.details?.length).toBeGreaterThan(0);
    }
    // Nothing of that changed the secret.
    expect(await fire(routine.id, secret)).toBe(202);
  });

  it('a routine switched to a schedule and back gets a new secret, and no rotated one stays kept', async () => {
    const { cookie, routine, secret: first, path } = await webhookRoutine('Rotate and switch');
    const second = (await t.request('POST', `${path}/secret`, { cookie, body: { keep_old_for_minutes: 60 } })).body.secret as string;
    const renamed = await t.request('PUT', path, { cookie, body: { name: 'Triage 2' } });
    expect(renamed.status).toBe(200);
    expect(renamed.body.secret).toBeUndefined();
    // A change that keeps the webhook keeps both secrets as they were.
    expect(await fire(routine.id, first)).toBe(202);
    expect(await fire(routine.id, second)).toBe(202);
    expect((await t.request('PUT', path, { cookie, body: { trigger: { schedule: 'rate(1 hour)' } } })).status).toBe(200);
    const back = await t.request('PUT', path, { cookie, body: { trigger: { webhook: true } } });
    expect(back.status).toBe(200);
    expect(await fire(routine.id, first)).toBe(401);
    expect(await fire(routine.id, second)).toBe(401);
    expect(await fire(routine.id, back.body.secret)).toBe(202);
  });
});
