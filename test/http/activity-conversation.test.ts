import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { activityEntryKey } from '../../shared/workspaces/entities.js';
import { createTestContext, type TestContext } from '../support/context.js';
import { startFakeModel, textReply, type FakeModel } from '../support/fake-model.js';

/*
 * An audit entry names the conversation its query was asked in (`conversation_id`, issue 47: the
 * console links each row of Activity to its transcript); an entry stored without one reads null.
 */

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
beforeEach(async () => {
  await t.runner.idle();
  model.reset();
  model.handle(() => textReply('An answer.'));
});

async function ask(cookie: string, workspaceId: string, body: Record<string, unknown>): Promise<string> {
  const response = await t.request('POST', `/api/workspaces/${workspaceId}/query`, { cookie, body });
  expect(response.status, response.text).toBe(200);
  return response.body.conversation_id as string;
}

describe('GET /api/workspaces/:id/activity: conversation_id', () => {
  it("names each entry's conversation, whose transcript opens by that id, in the list and its CSV", async () => {
    const { cookie, workspaceId } = await t.adminWithWorkspace('Audited');
    const first = await ask(cookie, workspaceId, { query: 'Where is order 42?' });
    const followUp = await ask(cookie, workspaceId, { query: 'And order 43?', session_id: first });
    const other = await ask(cookie, workspaceId, { query: 'A new question' });
    expect(followUp).toBe(first);
    expect(other).not.toBe(first);

    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie });
    expect(activity.status, activity.text).toBe(200);
    const byQuery = Object.fromEntries(
      activity.body.activity.map((entry: { query: string; conversation_id: string | null }) => [entry.query, entry.conversation_id]),
    );
    expect(byQuery).toEqual({ 'Where is order 42?': first, 'And order 43?': first, 'A new question': other });

    const transcript = await t.request('GET', `/api/workspaces/${workspaceId}/conversations/${first}`, { cookie });
    expect(transcript.status, transcript.text).toBe(200);

    // The CSV has it too, after the columns it had before (then only the tool-call columns of the MCP gateway).
    const csv = await t.request('GET', `/api/workspaces/${workspaceId}/activity.csv`, { cookie });
    const [header, ...rows] = csv.text
      .trimEnd()
      .split('\r\n')
      .map((line) => line.split(','));
    const column = header?.indexOf('conversation_id') ?? -1;
    expect(header?.slice(column)).toEqual(['conversation_id', 'kind', 'client', 'tool', 'outcome']);
    expect(rows.map((row) => row[column]).sort()).toEqual([first, first, other].sort());
  });

  it('reads null for an entry stored without a conversation', async () => {
    const { cookie, orgId, workspaceId } = await t.adminWithWorkspace('Old entries');
    const at = new Date(t.clock.now().getTime() - 1000).toISOString();
    await t.deps.table.put({
      ...activityEntryKey(orgId, workspaceId, at, 'act-old'),
      id: 'act-old',
      user_name: 'Ada Admin',
      query: 'an old question',
      tools_called: [],
      connections_hit: [],
      tokens_input: 1,
      tokens_output: 1,
      cost_usd: 0,
      duration_ms: 1,
      error: null,
      created_at: at,
    });
    const activity = await t.request('GET', `/api/workspaces/${workspaceId}/activity`, { cookie });
    expect(activity.body.activity).toEqual([expect.objectContaining({ id: 'act-old', conversation_id: null })]);
  });
});
