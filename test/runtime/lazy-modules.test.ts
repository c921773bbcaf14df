import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startFakeModel, textReply, toolUseReply, type FakeModel, type ModelRequestRecord } from '../support/fake-model.js';
import { startHttpMcpServer } from '../support/mcp-servers.js';
import { startRuntimeProcess } from '../support/runtime-process.js';
import { signUpOver } from '../support/signup.js';

/*
 * The guardrails' pattern engine (re2js) and the MCP transports' HTTP agent (undici) are loaded on
 * first need, not when a process starts. A fresh process (npm start in a child) deletes a stored
 * pattern guardrail as its first request; another runs its first query on a workspace whose
 * guardrail and connection an earlier process made: the query must load both itself, screen the
 * question and reach the tool server.
 */

let model: FakeModel;
let server: Awaited<ReturnType<typeof startHttpMcpServer>>;
let dataDir: string;

beforeAll(async () => {
  model = await startFakeModel();
  server = await startHttpMcpServer({ name: 'lookup', tools: [{ name: 'lookup', run: () => 'found it' }] });
  dataDir = await mkdtemp(join(tmpdir(), 'wap-lazy-'));
});
afterAll(async () => {
  await Promise.all([model.stop(), server.stop()]);
  await rm(dataDir, { recursive: true, force: true });
});

function started() {
  return startRuntimeProcess({ DATA_DIR: dataDir, ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'k', MODEL_MAX_RETRIES: '0' });
}

function userText(request: ModelRequestRecord): string {
  const first = request.body.messages[0]?.content;
  return typeof first === 'string' ? first : JSON.stringify(first);
}

describe('modules loaded on first need', () => {
  it('lets a fresh process delete a stored pattern guardrail, and its first query screen with the others and call an HTTP tool server', async () => {
    const first = started();
    let cookie: string;
    let workspace: { id: string };
    let guardrail: { id: string };
    try {
      const base = await first.url;
      cookie = await signUpOver(base, 'lazy@example.com');
      const post = (path: string, body: unknown) =>
        fetch(`${base}${path}`, { method: 'POST', headers: { cookie, 'content-type': 'application/json' }, body: JSON.stringify(body) });
      workspace = (await (await post('/api/workspaces', { name: 'Lazy' })).json()) as { id: string };
      expect((await post('/api/connectors/mcp', { workspace_id: workspace.id, name: 'lookup', url: server.url })).status).toBe(201);
      expect((await post(`/api/workspaces/${workspace.id}/guardrails`, { preset: 'email' })).status).toBe(201);
      const phones = await post(`/api/workspaces/${workspace.id}/guardrails`, { preset: 'phone_number' });
      expect(phones.status).toBe(201);
      ({ guardrail } = (await phones.json()) as { guardrail: { id: string } });
    } finally {
      await first.stop();
    }

    const second = started();
    try {
      const url = await second.url;
      // The first thing it does: delete a guardrail, which gives back its steps (its compiled size).
      const removed = await fetch(`${url}/api/workspaces/${workspace.id}/guardrails/${guardrail.id}`, {
        method: 'DELETE',
        headers: { cookie },
      });
      expect(removed.status).toBe(200);
    } finally {
      await second.stop();
    }

    // A third process, whose first request is the query: it loads the pattern engine itself.
    const third = started();
    try {
      const url = await third.url;
      model.handle((request) =>
        request.body.messages.length > 1 ? textReply('Here it is.') : toolUseReply([{ name: 'lookup', input: {} }]),
      );
      const callsBefore = server.stats.toolCalls;
      const response = await fetch(`${url}/api/workspaces/${workspace.id}/query`, {
        method: 'POST',
        headers: { cookie, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'Find the order of ada@example.com' }),
      });
      const body = (await response.json()) as { answer: string; tools_called: string[] };
      expect(response.status).toBe(200);
      expect(body.answer).toBe('Here it is.');
      expect(body.tools_called).toEqual(['lookup']);
      expect(server.stats.toolCalls).toBe(callsBefore + 1);
      const asked = model.requests.at(-2);
      expect(asked && userText(asked)).toContain('Find the order of [redacted]');
      expect(asked && userText(asked)).not.toContain('ada@example.com');
    } finally {
      await third.stop();
    }
  });
});
