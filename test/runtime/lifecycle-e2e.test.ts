import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { startFakeModel, textReply, toolUseReply, type FakeModel } from '../support/fake-model.js';
import { RecordingLogger } from '../support/logger.js';
import { FAST_SCRYPT } from '../support/context.js';
import { signUpOver } from '../support/signup.js';
import { wallClock } from '../support/clock.js';

let model: FakeModel;
let runtime: LocalRuntime;

beforeAll(async () => {
  model = await startFakeModel();
  model.handle((request) =>
    (request.body as { tool_choice?: unknown }).tool_choice
      ? toolUseReply([
          {
            name: 'record_conversation_stats',
            input: { sentiment_score: 0.5, resolution_status: 'resolved', category: 'query', summary: 'Asked for the time; got it.' },
          },
        ])
      : textReply('It is noon.'),
  );
  const config = parseConfig(
    // The periodic sweep out of the way: the moves must come from the scheduler's own timer.
    {
      DATA_DIR: 'memory',
      PORT: '0',
      LOG_LEVEL: 'SILENT',
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'k',
      SWEEP_INTERVAL_MS: '3600000',
    },
    'local',
  );
  runtime = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
});
afterAll(async () => {
  await runtime.stop();
  await model.stop();
});

function call(method: string, path: string, cookie: string, body?: unknown) {
  return callAt(runtime.url, method, path, cookie, body);
}

async function callAt(base: string, method: string, path: string, cookie: string, body?: unknown) {
  const response = await fetch(`${base}${path}`, {
    method,
    headers: { cookie, ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  return { status: response.status, body: (await response.json()) as any, headers: response.headers };
}

type QueueCounts = Record<string, { completed: number; failed: number }>;

async function queuesWhen(cookie: string, ready: (queues: QueueCounts) => boolean): Promise<QueueCounts> {
  const deadline = wallClock.ms() + 5_000;
  for (;;) {
    const queues = await call('GET', '/api/org/queues', cookie);
    const byName: QueueCounts = Object.fromEntries(queues.body.queues.map((queue: { name: string }) => [queue.name, queue]));
    if (ready(byName) || wallClock.ms() > deadline) return byName;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('conversation lifecycle on the local runtime, in real time', () => {
  it('goes open → cold → closed → stats complete with 0.05-minute timeouts, each move within 2 s of its due time', async () => {
    const cookie = await signUpOver(runtime.url, 'timer@example.com');
    const workspace = await call('POST', '/api/workspaces', cookie, { name: 'Fast lifecycle' });
    await call('PUT', `/api/workspaces/${workspace.body.id}`, cookie, { cold_timeout_minutes: 0.05, close_timeout_minutes: 0.05 });
    const asked = await call('POST', `/api/workspaces/${workspace.body.id}/query`, cookie, { query: 'What time is it?' });
    expect(asked.body.error).toBeNull();
    const path = `/api/workspaces/${workspace.body.id}/conversations/${asked.body.conversation_id}`;

    const seen: Record<string, number> = {};
    const deadline = wallClock.ms() + 20_000;
    while (wallClock.ms() < deadline) {
      const detail = await call('GET', path, cookie);
      const { status, stats_status } = detail.body.conversation;
      seen[status] ??= wallClock.ms();
      if (stats_status === 'complete') {
        seen.stats ??= wallClock.ms();
        break;
      }
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    expect(Object.keys(seen)).toEqual(expect.arrayContaining(['open', 'cold', 'closed', 'stats']));
    // When the moves happened, as the jobs recorded them: cold is due 3 s after the last
    // activity, closed 3 s after going cold; each within 2 s of its due time.
    const orgId = (await call('GET', '/api/auth/session', cookie)).body.user.org_id;
    expect(orgId).toEqual(expect.any(String));
    const stored = await runtime.deps.table.get({ pk: `CONV#${orgId}#${workspace.body.id}#${asked.body.conversation_id}`, sk: 'STATE' });
    expect(stored).toBeDefined();
    const at = (name: string) => new Date(String(stored?.[name])).getTime();
    expect(at('cold_at') - at('last_activity_at')).toBeGreaterThanOrEqual(3_000);
    expect(at('cold_at') - at('last_activity_at')).toBeLessThanOrEqual(5_000);
    expect(at('closed_at') - at('cold_at')).toBeGreaterThanOrEqual(3_000);
    expect(at('closed_at') - at('cold_at')).toBeLessThanOrEqual(5_000);

    const detail = await call('GET', path, cookie);
    expect(detail.body.stats).toMatchObject({
      stats_status: 'complete',
      category: 'query',
      resolution_status: 'resolved',
      sentiment_score: 0.5,
    });
    // The job writes the stats first and the runner records it completed just after: wait for the
    // ledger to catch up rather than racing it.
    const byName = await queuesWhen(cookie, (queues) => queues['conversation-stats']?.completed === 1);
    expect(byName.lifecycle).toMatchObject({ completed: 2, failed: 0, waiting: 0, active: 0 });
    expect(byName['conversation-stats']).toMatchObject({ completed: 1, failed: 0 });
  }, 30_000);

  it('sends, right after a restart, a move that fell due while the runtime was stopped', async () => {
    const dataDir = await mkdtemp(join(tmpdir(), 'wap-lifecycle-'));
    const env = {
      DATA_DIR: dataDir,
      PORT: '0',
      LOG_LEVEL: 'SILENT',
      ANTHROPIC_BASE_URL: model.url,
      ANTHROPIC_API_KEY: 'k',
      SWEEP_INTERVAL_MS: '3600000',
    };
    const first = await startLocalRuntime(parseConfig(env, 'local'), { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
    let second: LocalRuntime | undefined;
    try {
      const cookie = await signUpOver(first.url, 'restart@example.com');
      const workspace = await callAt(first.url, 'POST', '/api/workspaces', cookie, { name: 'Restarted' });
      await callAt(first.url, 'PUT', `/api/workspaces/${workspace.body.id}`, cookie, {
        cold_timeout_minutes: 0.05,
        close_timeout_minutes: 60,
      });
      const asked = await callAt(first.url, 'POST', `/api/workspaces/${workspace.body.id}/query`, cookie, { query: 'Still there?' });
      expect(asked.body.error).toBeNull();
      await first.stop();
      // Stopped past the cold move's due time (3 s).
      await new Promise((resolve) => setTimeout(resolve, 3_500));

      second = await startLocalRuntime(parseConfig(env, 'local'), { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
      const started = wallClock.ms();
      const path = `/api/workspaces/${workspace.body.id}/conversations/${asked.body.conversation_id}`;
      let status = '';
      while (wallClock.ms() - started < 5_000) {
        status = (await callAt(second.url, 'GET', path, cookie)).body.conversation.status;
        if (status === 'cold') break;
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(status).toBe('cold');
      expect(wallClock.ms() - started).toBeLessThan(2_000);
    } finally {
      await second?.stop();
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 30_000);
});
