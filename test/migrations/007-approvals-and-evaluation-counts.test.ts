import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { approvalsAndEvaluationCounts } from '../../migrations/007-approvals-and-evaluation-counts.js';
import { callerOf, getApproval, pausedQueryOf, type ApprovalItem } from '../../shared/approvals/approvals.js';
import { approvalKey } from '../../shared/approvals/entities.js';
import { evaluationKey } from '../../shared/evals/entities.js';
import { activityEntryKey } from '../../shared/workspaces/entities.js';
import { listShardOf } from '../../shared/platform/list-shards.js';
import { runMigrations, SCHEMA_MARKER } from '../../shared/platform/migrations.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { startHttpMcpServer } from '../support/mcp-servers.js';

/*
 * Migration 007 on a table as the version before wrote it: an approval paused before the audit log
 * had shards (no `activityShard`, its entry in the unsharded log), approvals asked in team chat
 * before the asking chat user was kept, and evaluations made before the organisation's counts.
 * Afterwards each reads, and is decided and counted, as it was.
 */

let t: TestContext;
let model: FakeModel;
let tickets: Awaited<ReturnType<typeof startHttpMcpServer>>;

beforeAll(async () => {
  model = await startFakeModel();
  tickets = await startHttpMcpServer({
    name: 'tickets-server',
    tools: [{ name: 'create_ticket', annotations: { readOnlyHint: false }, run: (args) => `ticket created: ${String(args.title)}` }],
  });
  t = await createTestContext({ env: { ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' } });
});
afterAll(async () => {
  await t.close();
  await Promise.all([model.stop(), tickets.stop()]);
});
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
});

const migrate = () => runMigrations(t.deps.table, [approvalsAndEvaluationCounts], { clock: t.clock });

/** A workspace whose write tools wait for an admin's approval, and a pending approval asked in it. */
async function pendingApproval() {
  const admin = await t.signUp();
  const workspace = await t.createWorkspace(admin.cookie, { name: `Approvals ${t.uniqueEmail('ws')}` });
  await t.connectMcp(admin.cookie, workspace.id, { name: 'tickets', url: tickets.url });
  const approval = { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 };
  expect((await t.request('PUT', `/api/workspaces/${workspace.id}`, { cookie: admin.cookie, body: { approval } })).status).toBe(200);
  model.reply(toolUseReply([{ name: 'create_ticket', input: { title: 'VPN down' } }]));
  const asked = await t.request('POST', `/api/workspaces/${workspace.id}/query`, {
    cookie: admin.cookie,
    body: { query: 'Open a ticket' },
  });
  expect(asked.status, asked.text).toBe(200);
  const item = (await getApproval(t.deps, admin.org.id, workspace.id, asked.body.pending_approval.id)) as ApprovalItem;
  return { admin, workspaceId: workspace.id as string, item };
}

/** The approval as the version before the audit log's shards wrote it: no shard named, its entry in the unsharded log. */
async function pausedBeforeShards(item: ApprovalItem) {
  const { activityShard, ...paused } = pausedQueryOf(item);
  const entryKey = (shard: number) => activityEntryKey(item.org_id, item.workspace_id, paused.activityAt, paused.activityId, shard);
  const entry = await t.deps.table.get(entryKey(activityShard), true);
  await t.deps.table.delete(entryKey(activityShard));
  await t.deps.table.put({ ...entry, ...entryKey(0) });
  await t.deps.table.put({ ...item, paused: JSON.stringify(paused) });
}

/** A copy of the approval, asked in a team-chat thread as the version before kept it: the chat user only in the grant subject. */
async function askedInChat(item: ApprovalItem, id: string, grantSubject: string) {
  const { userId: _, ...thread } = { channelId: 'C-THREADS', threadTs: '1700000000.000100', userId: undefined };
  const caller = { ...callerOf(item), consumerType: 'team-chat', chat: thread, grantSubject };
  const { activityShard: __, ...paused } = { ...pausedQueryOf(item), caller };
  await t.deps.table.put({
    ...item,
    ...approvalKey(item.org_id, item.workspace_id, id),
    id,
    gsi2sk: id,
    caller: JSON.stringify(caller),
    paused: JSON.stringify(paused),
  });
}

describe('migration 007: approvals and evaluation counts', () => {
  it('names the audit shard and the chat asker of approvals of before, which are decided as they were', async () => {
    const { admin, workspaceId, item } = await pendingApproval();
    const orgId = item.org_id;
    await pausedBeforeShards(item);
    await askedInChat(item, `${item.id}-chat`, `chat:${orgId}:U-ASKER`);
    await askedInChat(item, `${item.id}-linked`, `user:${admin.user.id}`);

    expect(await migrate()).toMatchObject({ from: 1, to: 7, moved: 3, left: 0 });
    expect(await migrate()).toMatchObject({ ran: [], moved: 0 });
    await t.deps.table.delete(SCHEMA_MARKER);
    expect(await migrate()).toMatchObject({ to: 7, moved: 0 });

    const read = async (id: string) => (await getApproval(t.deps, orgId, workspaceId, id)) as ApprovalItem;
    expect(pausedQueryOf(await read(item.id)).activityShard).toBe(0);
    const chat = await read(`${item.id}-chat`);
    expect(callerOf(chat).chat?.userId).toBe('U-ASKER');
    expect(pausedQueryOf(chat)).toMatchObject({ activityShard: 0, caller: { chat: { userId: 'U-ASKER' } } });
    // A linked asker's chat account was never kept: the answer goes to whoever presses, as before.
    expect(callerOf(await read(`${item.id}-linked`)).chat).not.toHaveProperty('userId');

    // Approved, the query rewrites its audit entry where it was: one entry, with the whole query.
    model.reply(textReply('Done'));
    const decided = await t.request('POST', `/api/workspaces/${workspaceId}/approvals/${item.id}`, {
      cookie: admin.cookie,
      body: { decision: 'approve' },
    });
    expect(decided.status, decided.text).toBe(200);
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie: admin.cookie });
    expect(activity.body.activity).toHaveLength(1);
    expect(activity.body.activity[0]).toMatchObject({ tools_called: ['create_ticket'] });
    const { activityAt, activityId } = pausedQueryOf(item);
    const entryIn = (shard: number) => activityEntryKey(orgId, workspaceId, activityAt, activityId, shard);
    expect(await t.deps.table.get(entryIn(0))).toMatchObject({ tools_called: ['create_ticket'] });
    if (listShardOf(activityId) !== 0) expect(await t.deps.table.get(entryIn(listShardOf(activityId)))).toBeUndefined();
  });

  it('counts the evaluations of before, so a workspace holds at most 50 and a run starts', async () => {
    await t.deps.table.delete(SCHEMA_MARKER);
    const admin = await t.signUp();
    const workspace = await t.createWorkspace(admin.cookie, { name: `Evals ${t.uniqueEmail('ws')}` });
    const orgId: string = admin.org.id;
    const at = t.clock.now().toISOString();
    const cases = [{ id: 'case-0', question: 'question?', expect: { contains: ['answered'] } }];
    for (let index = 0; index < 49; index += 1) {
      const id = `eval_before_${String(index).padStart(2, '0')}`;
      const fields = { id, org_id: orgId, workspace_id: workspace.id, name: `Before ${index}`, cases, created_at: at, updated_at: at };
      await t.deps.table.put({ ...evaluationKey(orgId, workspace.id, id), ...fields, last_run: null });
    }

    expect(await migrate()).toMatchObject({ to: 7, moved: 1, left: 0 });
    expect(await t.deps.table.get({ pk: `ORG#${orgId}`, sk: 'EVALCOUNTS' }, true)).toMatchObject({
      evals: { [workspace.id]: 49 },
      cases: 0,
      runs: {},
    });

    const create = () =>
      t.request('POST', `/api/workspaces/${workspace.id}/evals`, { cookie: admin.cookie, body: { name: 'After', cases } });
    expect((await create()).status).toBe(201);
    expect((await create()).status).toBe(409);
    model.handle(() => textReply('answered'));
    const run = await t.request('POST', `/api/workspaces/${workspace.id}/evals/eval_before_00/runs`, { cookie: admin.cookie, body: {} });
    expect(run.status, run.text).toBe(202);
    await t.runner.idle();
  });
});
