import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { budgetAlertHandler, type BudgetAlertJob } from '../../shared/budgets/alerts.js';
import { periodOf } from '../../shared/budgets/store.js';
import { UnconnectedChat } from '../../shared/chat/notifier-port.js';
import { unrecordedJob } from '../../shared/jobs/ledger.js';
import { channelBindingKey, channelListing } from '../../shared/chat/entities.js';
import { RecordingChat } from '../support/chat.js';
import { createTestContext, type TestContext } from '../support/context.js';

/*
 * A workspace budget's alert is also posted in the team-chat channels bound to the workspace
 * (CONTRACT.md, "Budgets"). An organisation whose team chat is not connected gets the webhook only:
 * the alert skips the post by the error's code (`not_connected`), never by its words.
 */

let t: TestContext;

beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t.close();
});

/** A workspace with a day budget alerting at 50% and a channel bound to it; the alert job of that threshold. */
async function alertOfBoundWorkspace() {
  const admin = await t.signUp();
  const orgId: string = admin.org.id;
  const workspace = await t.createWorkspace(admin.cookie, { name: 'Alerted' });
  const body = { scope: 'workspace', scope_id: workspace.id, period: 'day', limit_usd: 1, alert_percent: [50] };
  const created = await t.request('POST', '/api/org/budgets', { cookie: admin.cookie, body });
  expect(created.status, created.text).toBe(201);
  await t.deps.table.put({
    ...channelBindingKey(orgId, 'C-ALERTS'),
    org_id: orgId,
    channel_id: 'C-ALERTS',
    channel_name: null,
    workspace_id: workspace.id,
    workspace_name: workspace.name,
    ...channelListing(orgId, workspace.id, 'C-ALERTS'),
    created_at: t.clock.now().toISOString(),
  });
  const data: BudgetAlertJob = {
    kind: 'budget-alert',
    budgetId: created.body.budget.id,
    period: periodOf('day', t.clock.now()),
    percent: 50,
  };
  return { data, job: unrecordedJob(t.deps, { jobId: `alert-${orgId}`, queue: 'cold-messages', orgId, data }) };
}

describe('budgetAlertHandler', () => {
  it('skips the channel post of an organisation whose team chat is not connected', async () => {
    const { data, job } = await alertOfBoundWorkspace();
    await expect(budgetAlertHandler.run({ ...t.deps, chat: new UnconnectedChat() }, data, job)).resolves.toBeUndefined();
  });

  it('fails the job, to be tried again, when the post fails otherwise, even in the same words', async () => {
    const { data, job } = await alertOfBoundWorkspace();
    const chat = new RecordingChat();
    chat.failWith = new Error('team-chat is not connected for this organisation');
    await expect(budgetAlertHandler.run({ ...t.deps, chat }, data, job)).rejects.toBe(chat.failWith);
    chat.failWith = undefined;
    await budgetAlertHandler.run({ ...t.deps, chat }, data, job);
    expect(chat.posts).toEqual([
      { orgId: job.org_id, channelId: 'C-ALERTS', threadTs: '', text: expect.stringContaining('has reached 50%') },
    ]);
  });
});
