/**
 * Makes docs/console-dashboard.png, offline: the local runtime in this process with the fake model
 * and the fake team chat of the tests, two weeks of made-up support traffic asked through every
 * consumer (console session, api key, messaging key, team chat), then the workspace's Dashboard
 * page in Chromium. `npx tsx scripts/dashboard-screenshot.ts`; exits 1 with the reason on failure.
 */
import { join } from 'node:path';
import type { Browser } from 'playwright-core';
import { startLocalRuntime } from '../bin/local-runtime.js';
import type { Clock } from '../shared/platform/clock.js';
import { parseConfig } from '../shared/platform/config.js';
import { launchBrowser } from '../test/browser/browser.js';
import { startFakeChat, type FakeChat } from '../test/support/fake-chat.js';
import { startFakeModel, textReply, toolUseReply, type FakeReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import type { components } from '../web/src/api/schema.js';
import { ensureConsoleBuilt } from '../web/build.js';

type Schemas = components['schemas'];
const OUT = join(import.meta.dirname, '..', 'docs', 'console-dashboard.png');
const WS = 'ws-customer-support';
const DAYS = 14;
const DAY_MS = 86_400_000;
const ADMIN = { name: 'Ada Lovelace', email: 'ada@example.com', password: 'analytical engine' };

/** Real time moved by an offset: the history is made in the past, and timers still see time pass. */
class ShiftedClock implements Clock {
  offsetMs = 0;
  now(): Date {
    return new Date(Date.now() + this.offsetMs);
  }
}

/** mulberry32: the same made-up traffic on every run, so the picture only changes with the console. */
let seed = 20261123;
function random(): number {
  seed = (seed + 0x6d2b79f5) | 0;
  let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
  t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
  return ((t ^ (t >>> 14)) >>> 0) / 4_294_967_296;
}
const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
const between = (low: number, high: number) => low + Math.floor(random() * (high - low + 1));

/** What customers ask ({n}: an order number, {email}: an address the email guardrail redacts), by category. */
const QUESTIONS: Record<string, string[]> = {
  orders: ['Where is my order {n}?', 'Has order {n} shipped yet?', 'Can you check the status of order {n}?', 'When will order {n} arrive?'],
  refunds: ['Please refund order {n}, it arrived damaged.', 'How long does a refund take?', 'I returned order {n}: can you refund it?'],
  shipping: ['Do you ship to Norway?', 'How much is express delivery?', 'Can I change the delivery address after ordering?'],
  account: ['How do I reset my password?', 'Please change the email of my account to {email}', 'How do I close my account?'],
};
const MIX = ['orders', 'orders', 'orders', 'orders', 'shipping', 'shipping', 'refunds', 'refunds', 'account', 'account'];
const ANSWERS: Record<string, string> = {
  refunds: 'Refunds go back to the original payment method within 5 working days of the return reaching our warehouse.',
  shipping: 'We ship to most of Europe, Norway included: standard delivery takes 3–5 working days, express is next day for €9.90.',
  account: 'You can do that under Account → Settings; for a forgotten password, use "Reset password" on the sign-in page.',
};
const CUSTOMERS = ['Maria Garcia', 'Tom Becker', 'Priya Shah', 'Lars Nilsson', 'Chen Wei', 'Amara Okafor'];
const categoryOf = (text: string) =>
  /refund/i.test(text) ? 'refunds' : /order \d+/i.test(text) ? 'orders' : /ship|deliver/i.test(text) ? 'shipping' : 'account';

function question(): string {
  const category = pick(MIX);
  const address = `${pick(CUSTOMERS).toLowerCase().replace(' ', '.')}@example.com`;
  const text = pick(QUESTIONS[category] ?? []);
  return text.replace('{n}', String(between(11, 98))).replace('{email}', address);
}

/** The text of a message's blocks (or of the string it is), and its tool results' text. */
function textsOf(message: { content: unknown } | undefined, type: 'text' | 'tool_result'): string {
  if (typeof message?.content === 'string') return type === 'text' ? message.content : '';
  const blocks = (Array.isArray(message?.content) ? message.content : []) as { type: string; text?: string; content?: unknown }[];
  const textOf = (block: (typeof blocks)[number]) =>
    type === 'text' ? (block.text ?? '') : typeof block.content === 'string' ? block.content : JSON.stringify(block.content);
  const wanted = blocks.filter((block) => block.type === type);
  return wanted.map(textOf).join(' ');
}

/** Believable token counts: a system prompt with tools is a few thousand tokens. */
const usage = () => ({ input_tokens: between(1800, 4200), output_tokens: between(40, 220) });

/** The statistics job: mostly resolved and positive; an unresolved one is unhappy (and a knowledge gap). */
function statsReply(transcript: string): FakeReply {
  const resolved = random() < 0.8;
  const sentiment = resolved ? pick([0.9, 0.8, 0.7, 0.6, 0.4, 0.1]) : pick([-0.8, -0.5, 0]);
  const asked = /^User: (.*)$/m.exec(transcript)?.[1] ?? 'a question';
  const outcome = resolved ? pick(['answered at once', 'sorted out', 'the customer was happy']) : 'needs a person to follow up';
  const input = { sentiment_score: sentiment, resolution_status: resolved ? 'resolved' : 'unresolved', category: categoryOf(transcript) };
  return toolUseReply([{ name: 'record_conversation_stats', input: { ...input, summary: `"${asked}": ${outcome}.` } }], usage());
}

/** The model: order questions look the order up, refunds call refund_order (approved or not), the rest is answered. */
function reply(request: ModelRequestRecord): FakeReply {
  const body = request.body as ModelRequestRecord['body'] & { tool_choice?: unknown };
  if (body.tool_choice) return statsReply(textsOf(body.messages[0], 'text'));
  const last = body.messages.at(-1);
  const result = textsOf(last, 'tool_result');
  if (result) {
    if (/refunded/.test(result)) return textReply(`Done: ${result}; the money is back on your card within 5 working days.`, usage());
    if (/denied|not approved/i.test(result)) return textReply('A colleague will review that refund and write to you.', usage());
    return textReply(`${result.charAt(0).toUpperCase()}${result.slice(1)}.`, usage());
  }
  const asked = textsOf(last, 'text');
  const order = /order (\d+)/i.exec(asked)?.[1];
  const tool = body.tools?.find((candidate) => candidate.name.endsWith(/refund/i.test(asked) ? 'refund_order' : 'lookup_order'));
  if (order && tool) return toolUseReply([{ name: tool.name, input: { order_id: order } }], usage());
  return textReply(ANSWERS[categoryOf(asked)] ?? ANSWERS.account ?? '', usage());
}

type Auth = Record<string, string>;

/** The service's HTTP API as the console and the consumers call it; an error status throws. */
function apiOf(base: string) {
  return async function call<T>(method: string, path: string, auth: Auth, body?: unknown): Promise<T & { cookie: string }> {
    const headers = { ...auth, ...(body === undefined ? {} : { 'content-type': 'application/json' }) };
    const response = await fetch(`${base}${path}`, { method, headers, body: body === undefined ? undefined : JSON.stringify(body) });
    const text = await response.text();
    if (!response.ok) throw new Error(`${method} ${path} answered ${response.status}: ${text}`);
    const cookie = (response.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    return { ...(JSON.parse(text) as T), cookie };
  };
}
type Call = ReturnType<typeof apiOf>;

/** Signs up, makes the workspace with its connection, guardrail, approvals and the four consumers. */
async function setUp(call: Call, chat: FakeChat) {
  const admin = { cookie: (await call('POST', '/api/signup', {}, { ...ADMIN, org_name: 'Acme' })).cookie };
  const system_prompt = "You help Acme's customers with their orders, refunds, deliveries and accounts.";
  await call('POST', '/api/workspaces', admin, { name: 'Customer Support', team_name: 'Support', system_prompt });
  const orders = { transport: 'stdio', command: 'node', args: ['servers/orders-mcp-server.mjs'] };
  await call('POST', '/api/connectors/mcp', admin, { workspace_id: WS, name: 'orders', ...orders });
  await call('POST', `/api/workspaces/${WS}/guardrails`, admin, { preset: 'email', applies_to: 'input' });
  await call('PUT', `/api/workspaces/${WS}`, admin, { approval: { mode: 'write_tools', approvers: 'admins', expires_minutes: 60 } });
  const connect = { workspace_id: WS, credentials: {} };
  const consumer = (type: string, extra = {}) =>
    call<Schemas['ConnectConsumerResponse']>('POST', '/api/connectors/consumer', admin, { type, ...connect, ...extra });
  const api = await consumer('api');
  const messaging = await consumer('messaging');
  await consumer('team-chat', { credentials: { bot_token: chat.botToken, app_token: chat.appToken }, channel_id: 'C1' });
  await call('POST', '/api/connectors/consumer/channel', admin, { type: 'team-chat', workspace_id: WS, channel_id: 'C3' });
  const bearer = (key = '') => ({ authorization: `Bearer ${key}` });
  return { apiKey: bearer(api.api_key), messaging: { id: messaging.id, key: bearer(messaging.api_key) } };
}
type Consumers = Awaited<ReturnType<typeof setUp>>;

/** Polls `done` every 50 ms until it holds; throws after `timeoutMs`. */
async function until(what: string, done: () => boolean | Promise<boolean>, timeoutMs = 20_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await done())) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One question through one of the entry points; a refund waits for an admin, who mostly approves it. */
async function ask(call: Call, admin: Auth, consumers: Consumers, chat: FakeChat, text: string, at: Date): Promise<void> {
  // A refund of an order waits for approval, which team chat asks for with buttons nobody presses here.
  const refund = /refund/i.test(text) && /order \d+/i.test(text);
  const via = refund ? pick(['console', 'api', 'messaging']) : pick(['console', 'console', 'api', 'messaging', 'chat', 'chat']);
  if (via === 'chat') {
    const ts = `${Math.floor(at.getTime() / 1000)}.${String(between(1, 999_999)).padStart(6, '0')}`;
    chat.sendEvent({ type: 'app_mention', channel: pick(['C1', 'C1', 'C3']), user: pick(['U1', 'U2']), text: `<@UBOT> ${text}`, ts });
    return until(`the team-chat answer to "${text}"`, () => chat.answersIn(ts).length > 0);
  }
  type Answer = Schemas['QueryResponse'];
  const { messaging } = consumers;
  const message = { user: pick(CUSTOMERS), text, thread_id: `thread-${at.getTime()}` };
  const answer =
    via === 'messaging'
      ? await call<Answer>('POST', `/api/consumers/${messaging.id}/messages`, messaging.key, message)
      : await call<Answer>('POST', `/api/workspaces/${WS}/query`, via === 'api' ? consumers.apiKey : admin, { query: text });
  if (answer.error) throw new Error(`"${text}" failed: ${answer.error}`);
  if (answer.pending_approval) {
    const decision = random() < 0.7 ? 'approve' : 'deny';
    await call('POST', `/api/workspaces/${WS}/approvals/${answer.pending_approval.id}`, admin, { decision });
  }
}

/** Rates some answers, closes the open conversations (all of them, or about half), waits for their statistics. */
async function wrapUp(call: Call, admin: Auth, closeShare: number): Promise<void> {
  const path = `/api/workspaces/${WS}/conversations`;
  const { conversations } = await call<Schemas['ConversationList']>('GET', `${path}?status=open&limit=100`, admin);
  for (const { id } of conversations) {
    if (random() < 0.6) {
      const { messages } = await call<Schemas['ConversationDetail']>('GET', `${path}/${id}`, admin);
      const answer = messages.find((message) => message.role === 'assistant');
      const rating = random() < 0.8 ? 'up' : 'down';
      if (answer) await call('POST', `${path}/${id}/messages/${answer.seq}/feedback`, admin, { rating });
    }
    if (random() < closeShare) await call('POST', `${path}/${id}/close`, admin);
  }
  await until('the statistics of the closed conversations', async () => {
    const { sentiment, tickets } = await call<Schemas['Dashboard']>('GET', `/api/workspaces/${WS}/dashboard`, admin);
    return sentiment.positive + sentiment.neutral + sentiment.negative === tickets.closed;
  });
}

/** Moves the runtime's clock to `at` (epoch ms), never past real time. */
function moveTo(clock: ShiftedClock, at: number): Date {
  clock.offsetMs = Math.min(at, Date.now() - 60_000) - Date.now();
  return clock.now();
}

/** Two weeks of traffic, oldest day first: quiet weekends, weekdays slowly busier; today's conversations stay open. */
async function makeHistory(call: Call, clock: ShiftedClock, consumers: Consumers, chat: FakeChat): Promise<number> {
  let asked = 0;
  for (let back = DAYS - 1; back >= 0; back -= 1) {
    const midnight = Math.floor(Date.now() / DAY_MS - back) * DAY_MS;
    const weekend = new Date(midnight).getUTCDay() % 6 === 0;
    const count = weekend ? between(1, 2) : between(2, 4) + Math.floor((DAYS - back) / 5);
    // Office hours (UTC), in order; today's end before now.
    const times = Array.from({ length: count }, () => midnight + between(8 * 60, 18 * 60) * 60_000).sort((a, b) => a - b);
    // Sessions last 7 days of the runtime's clock: sign in again each morning.
    moveTo(clock, midnight + 7 * 3_600_000);
    const { cookie } = await call('POST', '/api/auth/login', {}, { email: ADMIN.email, password: ADMIN.password });
    for (const [index, time] of times.entries()) {
      await ask(call, { cookie }, consumers, chat, question(), moveTo(clock, Math.min(time, Date.now() - (count - index) * 600_000)));
      asked += 1;
    }
    moveTo(clock, (times.at(-1) ?? midnight + 17 * 3_600_000) + 20 * 60_000);
    await wrapUp(call, { cookie }, back === 0 ? 0 : back === 1 ? 0.5 : 1);
  }
  clock.offsetMs = 0;
  return asked;
}

/** Signs in through the console's own page and saves the dashboard, charts drawn and nothing loading. */
async function screenshot(browser: Browser, url: string): Promise<void> {
  const page = await browser.newPage({ viewport: { width: 1280, height: 900 }, reducedMotion: 'reduce' });
  await page.goto(`${url}/signin`);
  await page.getByLabel('Email').fill(ADMIN.email);
  await page.getByLabel('Password').fill(ADMIN.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
  await page.goto(`${url}/workspaces/${WS}/dashboard`);
  await page.getByRole('heading', { level: 1, name: 'Dashboard' }).waitFor();
  await until('the charts', async () => (await page.locator('svg.recharts-surface').count()) >= 6);
  await until('the end of loading', async () => (await page.getByRole('status').filter({ hasText: 'Loading' }).count()) === 0);
  // Down to the end of the conversation charts (about 1400 px): the lists below are plain tables.
  const charts = await page.getByRole('region', { name: 'Conversations', exact: true }).boundingBox();
  if (!charts) throw new Error('the Conversations section of the dashboard is not shown');
  await page.screenshot({ path: OUT, fullPage: true, clip: { x: 0, y: 0, width: 1280, height: Math.ceil(charts.y + charts.height + 24) } });
}

async function main(): Promise<void> {
  const started = performance.now();
  await ensureConsoleBuilt((line) => console.log(line));
  const clock = new ShiftedClock();
  const stack: { stop(): Promise<void> }[] = [];
  try {
    const model = await startFakeModel();
    model.handle(reply);
    const chat = await startFakeChat();
    stack.push(model, chat);
    const env = { DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'SILENT', ANTHROPIC_BASE_URL: model.url, ANTHROPIC_API_KEY: 'offline' };
    const config = parseConfig({ ...env, SLACK_API_URL: chat.apiUrl, CHAT_BRIDGE_POLL_MS: '200' }, 'local');
    const runtime = await startLocalRuntime(config, { clock });
    stack.push(runtime);
    const call = apiOf(runtime.url);
    const consumers = await setUp(call, chat);
    await until('the team-chat bridge', () => chat.openSockets > 0);
    const asked = await makeHistory(call, clock, consumers, chat);
    const browser = await launchBrowser();
    stack.push({ stop: () => browser.close() });
    await screenshot(browser, runtime.url);
    console.log(`${asked} questions over ${DAYS} days; saved ${OUT} in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  } finally {
    for (const part of stack.reverse()) await part.stop().catch(() => {});
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`dashboard-screenshot failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  },
);
