import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startRuntimeProcess } from '../test/support/runtime-process.js';
import { signUpOver } from '../test/support/signup.js';
import { APPROVAL_DUE_SHARDS } from '../shared/approvals/expiry.js';
import { PENDING_SHARDS } from '../shared/jobs/entities.js';
import { LIST_SHARDS } from '../shared/platform/list-shards.js';
import { apiOf, type Row } from './report.js';
import { LIMITS_OUT_OF_THE_WAY } from './service-client.js';
import { startAccountingStore, type WriteTotals } from './write-accounting.js';

/**
 * Write units and hot partitions under a multi-tenant load (issue 35): `npm start` in its own
 * process with `DYNAMODB_ENDPOINT` at the write-accounting proxy (`write-accounting.ts`: every
 * write billed as DynamoDB on-demand would, base item and index entries), a zero-latency fake
 * model. 3 organisations × 2 workspaces (system prompts of about 4 000 characters) × 4
 * conversations × 3 questions (a first and two follow-ups), all conversations at once; then every
 * conversation is closed and its jobs (the conversation stats) run to the end. The setup (sign-ups,
 * workspaces) is counted apart; everything after it is divided by the 72 questions.
 */

const ORGS = 3;
const WORKSPACES_PER_ORG = 2;
const CONVERSATIONS_PER_WORKSPACE = 4;
const QUESTIONS_PER_CONVERSATION = 3;
/** A partition's write ceiling in DynamoDB: 1 000 WCU/s. */
const PARTITION_WCU_PER_S = 1000;
const GOAL_WCU_PER_QUESTION = 12;
const GOAL_TENANT_PARTITION = 1;
const GOAL_SHARED_PARTITION = 0.02;
/**
 * The timed variant's timeouts: long enough for a conversation's three questions under the load,
 * short enough to wait for (the moves then run on the local runtime's own scheduler).
 */
const TIMED_COLD_MINUTES = 0.25;
const TIMED_CLOSE_MINUTES = 0.05;
/** How long the load waits for every conversation's stats: by hand, after the closes; by timer, the timeouts too. */
const STATS_DEADLINE_MS = 90_000;
/** The due index's shards on AWS (`DUE_INDEX_SHARDS`'s default there): the service runs with them here. */
const DUE_SHARDS = 128;

const ANSWER =
  'You can reset your password from the sign-in page: choose "Forgot password", enter your work e-mail, and follow the link we send within a few minutes.';
const QUESTIONS = [
  'How do I reset my password?',
  'The reset link says it expired. What now?',
  'Thanks. Can I also turn on two-factor sign-in?',
];

/** What the conversation-stats job's call answers (its tool, forced by `tool_choice`). */
function reply(request: ModelRequestRecord) {
  if ((request.body as { tool_choice?: unknown }).tool_choice !== undefined) {
    return toolUseReply(
      [
        {
          name: 'record_conversation_stats',
          input: {
            sentiment_score: 0.6,
            resolution_status: 'resolved',
            category: 'Support',
            summary: 'User asked how to reset a password and about two-factor sign-in; answered.',
          },
        },
      ],
      { input_tokens: 2000, output_tokens: 300 },
    );
  }
  return textReply(ANSWER, { input_tokens: 1200, output_tokens: 60 });
}

const RULES = [
  'Greet the customer by name when the ticket gives it, and never use more than one exclamation mark in a reply.',
  'Answer in the language the customer wrote in; if it is not one of English, French, German or Spanish, answer in English and say that a colleague can follow up in their language.',
  'Before you suggest a fix, restate the problem in one sentence so the customer can correct you if you misread it.',
  'Never ask for a password, a one-time code or a full card number. If the customer sends one, tell them to change it at once and do not repeat it.',
  'Refunds: orders of the last 30 days are refunded in full to the original payment method; after 30 days offer store credit, and above 200 EUR hand the ticket to the billing team.',
  'Shipping delays: look up the carrier status first. If the parcel has not moved for five working days, open a trace with the carrier and tell the customer when they will hear back.',
  'Outages: if the status page shows an incident, link it, give the last update time, and do not promise a resolution time the incident team has not given.',
  'Account deletion is irreversible: explain what is deleted (projects, invoices after the legal retention period, shared links) and ask the customer to confirm in writing.',
  'Escalate to a human when the customer mentions legal action, a data breach, a safety issue, or has written three times about the same problem without a resolution.',
  'Keep answers under 150 words unless the customer asks for detail; use numbered steps for anything with more than two steps.',
  'When a feature does not exist, say so plainly, suggest the closest workaround, and offer to record the request for the product team.',
  'Security questions (SSO, SCIM, data residency, encryption) go to the trust centre page first; quote it rather than paraphrasing.',
  'Do not speculate about release dates, pricing changes or other customers. If asked, say you cannot share that and point to the public changelog.',
  'Close each answer by asking whether the problem is solved, except when you escalated: then say who will contact them and within what time.',
];

/** A support desk's system prompt of about 4 000 characters, different for each workspace. */
function systemPromptOf(company: string, desk: string): string {
  const lines = [
    `You are the ${desk} assistant of ${company}. You answer customers who write to ${company} support by e-mail, chat and the help centre widget.`,
    `Follow these rules in order; when two rules conflict, the earlier one wins. Be accurate, brief and kind; if you do not know, say so and offer to hand over to the ${desk} team.`,
  ];
  for (let round = 0; lines.join('\n').length < 4000; round += 1) {
    const rule = RULES[round % RULES.length] ?? '';
    lines.push(`${round + 1}. ${round >= RULES.length ? `(${desk}, ${company}) ` : ''}${rule}`);
  }
  return lines.join('\n');
}

interface Tenants {
  orgs: { id: string; workspaces: string[] }[];
  conversations: string[];
}

/** Names a partition by its pattern: the known ids replaced by `<org>`, `<ws>`, `<conv>`, others by `<id>`, times by `<time>`. */
function patternOf(partition: string, tenants: Tenants): string {
  let pattern = partition;
  for (const conversation of tenants.conversations) pattern = pattern.replaceAll(conversation, '<conv>');
  for (const org of tenants.orgs) {
    for (const workspace of org.workspaces) pattern = pattern.replaceAll(`${org.id}#${workspace}`, '<org>#<ws>');
    pattern = pattern.replaceAll(org.id, '<org>');
  }
  return pattern
    .replace(/\b[a-z]+_[0-9a-z]{13}[0-9a-f]{16}\b/g, '<id>')
    .replace(/\d{4}-\d{2}-\d{2}T[\d:.]+Z/g, '<time>')
    .replace(/\d{4}-\d{2}-\d{2}/g, '<day>');
}

type Scope = 'workspace' | 'organisation' | 'deployment';

/** A partition's scope: its key holds a workspace (of an organisation), else an organisation, else neither. */
function scopeOf(partition: string, tenants: Tenants): { scope: Scope; questions: number } {
  const perWorkspace = CONVERSATIONS_PER_WORKSPACE * QUESTIONS_PER_CONVERSATION;
  for (const org of tenants.orgs) {
    if (org.workspaces.some((workspace) => partition.includes(`${org.id}#${workspace}`)))
      return { scope: 'workspace', questions: perWorkspace };
  }
  if (tenants.orgs.some((org) => partition.includes(org.id)))
    return { scope: 'organisation', questions: perWorkspace * WORKSPACES_PER_ORG };
  return { scope: 'deployment', questions: perWorkspace * WORKSPACES_PER_ORG * ORGS };
}

const round = (value: number, places = 3) => Math.round(value * 10 ** places) / 10 ** places;

interface Measured {
  tenants: Tenants;
  setup: WriteTotals;
  load: WriteTotals;
  questions: number;
  statsComplete: number;
  conversations: number;
}

/** How the load's conversations end: closed by hand once their questions are done, or by their timers (cold, then closed). */
type Closing = 'hand' | 'timer';

async function measure(closing: Closing): Promise<Measured> {
  const store = await startAccountingStore();
  const model = await startFakeModel();
  model.handle(reply);
  const dataDir = await mkdtemp(join(tmpdir(), 'wap-partitions-'));
  const service = startRuntimeProcess({
    DATA_DIR: dataDir,
    DYNAMODB_ENDPOINT: store.endpoint,
    ANTHROPIC_BASE_URL: model.url,
    ANTHROPIC_API_KEY: 'bench',
    ...LIMITS_OUT_OF_THE_WAY,
    SESSION_SECRET: 'a session secret of at least thirty-two characters',
    DUE_INDEX_SHARDS: String(DUE_SHARDS),
  });
  try {
    const url = await service.url;
    await store.settle(300);
    const companies = ['Northwind Outfitters', 'Globex Logistics', 'Initech Cloud'];
    const desks = ['billing', 'technical support'];
    const tenants: Tenants = { orgs: [], conversations: [] };
    const clients: { call: ReturnType<typeof apiOf>['call']; workspaceId: string }[] = [];
    for (const [index, company] of companies.slice(0, ORGS).entries()) {
      const cookie = await signUpOver(url, `admin${index}@${company.split(' ')[0]?.toLowerCase()}.example.com`, `Admin of ${company}`);
      const { call } = apiOf(url, cookie);
      const org = await call('GET', '/api/org');
      const orgId = String(org.org?.id ?? org.id);
      const workspaces: string[] = [];
      for (const desk of desks.slice(0, WORKSPACES_PER_ORG)) {
        const created = await call('POST', '/api/workspaces', { name: `${company} ${desk}`, system_prompt: systemPromptOf(company, desk) });
        if (closing === 'timer') {
          const timeouts = { cold_timeout_minutes: TIMED_COLD_MINUTES, close_timeout_minutes: TIMED_CLOSE_MINUTES };
          const updated = await call('PUT', `/api/workspaces/${created.id}`, timeouts);
          if (updated.error) throw new Error(`the timeouts were refused: ${JSON.stringify(updated.error)}`);
        }
        workspaces.push(String(created.id));
        clients.push({ call, workspaceId: String(created.id) });
      }
      tenants.orgs.push({ id: orgId, workspaces });
    }
    await store.settle(500);
    const setup = store.totals();
    store.reset();

    // Every conversation at once; each one's questions in order.
    const conversations = clients.flatMap((client) =>
      Array.from({ length: CONVERSATIONS_PER_WORKSPACE }, () => ({ ...client, conversationId: '' })),
    );
    let questions = 0;
    await Promise.all(
      conversations.map(async (conversation) => {
        for (const query of QUESTIONS.slice(0, QUESTIONS_PER_CONVERSATION)) {
          const body = conversation.conversationId ? { query, session_id: conversation.conversationId } : { query };
          const answer = await conversation.call('POST', `/api/workspaces/${conversation.workspaceId}/query`, body);
          if (answer.error) throw new Error(`query failed: ${JSON.stringify(answer.error)}`);
          conversation.conversationId ||= String(answer.conversation_id ?? answer.session_id);
          questions += 1;
        }
      }),
    );
    tenants.conversations = conversations.map((conversation) => conversation.conversationId);
    if (closing === 'hand') {
      await Promise.all(
        conversations.map((conversation) =>
          conversation.call('POST', `/api/workspaces/${conversation.workspaceId}/conversations/${conversation.conversationId}/close`),
        ),
      );
    }
    // The jobs the closes started (and the timed moves): until every conversation's stats are complete, then no write for 2 s.
    const deadline = Date.now() + STATS_DEADLINE_MS;
    let statsComplete = 0;
    while (Date.now() < deadline) {
      const details = await Promise.all(
        conversations.map((conversation) =>
          conversation.call('GET', `/api/workspaces/${conversation.workspaceId}/conversations/${conversation.conversationId}`),
        ),
      );
      statsComplete = details.filter((detail) => detail.stats?.stats_status === 'complete').length;
      if (statsComplete === conversations.length) break;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    await store.settle(2000);
    return { tenants, setup, load: store.totals(), questions, statsComplete, conversations: conversations.length };
  } finally {
    await service.stop();
    await model.stop();
    await store.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

const measured: Partial<Record<Closing, Promise<Measured>>> = {};
/** One run of the load for the tables of this benchmark (conversations closed by hand, unless said). */
const measurement = (closing: Closing = 'hand') => {
  measured[closing] ??= measure(closing);
  return measured[closing];
};

interface Hot {
  partition: string;
  pattern: string;
  scope: Scope;
  wcu: number;
  perQuestion: number;
}

function partitionsOf({ load, tenants }: Measured): Hot[] {
  return [...load.partitions]
    .map(([partition, wcu]) => {
      const { scope, questions } = scopeOf(partition, tenants);
      return { partition, pattern: patternOf(partition, tenants), scope, wcu, perQuestion: wcu / questions };
    })
    .sort((a, b) => b.perQuestion - a.perQuestion || b.wcu - a.wcu);
}

const ceiling = (perQuestion: number) => (perQuestion > 0 ? Math.round(PARTITION_WCU_PER_S / perQuestion) : '-');

/** The headline: write units per question and the hottest partition of each scope, with the goals of issue 35. */
export async function benchPartitions(): Promise<Row[]> {
  const result = await measurement();
  const { load, setup, questions } = result;
  const hot = partitionsOf(result);
  const rows: Row[] = [
    {
      figure: 'write units per question (queries, closes, jobs)',
      partition: '-',
      wcu: load.wcu,
      wcu_per_question: round(load.wcu / questions, 2),
      questions_per_s: '-',
      goal: `<= ${GOAL_WCU_PER_QUESTION}`,
      met: load.wcu / questions <= GOAL_WCU_PER_QUESTION ? 'yes' : 'no',
    },
    {
      figure: '  of which base items',
      partition: '-',
      wcu: load.baseWcu,
      wcu_per_question: round(load.baseWcu / questions, 2),
      questions_per_s: '-',
      goal: '',
      met: '',
    },
    {
      figure: '  of which index entries',
      partition: '-',
      wcu: load.indexWcu,
      wcu_per_question: round(load.indexWcu / questions, 2),
      questions_per_s: '-',
      goal: '',
      met: '',
    },
  ];
  const labels: Record<Scope, string> = {
    workspace: 'hottest workspace partition (per question of its workspace)',
    organisation: 'hottest organisation partition (per question of its org)',
    deployment: 'hottest partition shared by all tenants (per question of all)',
  };
  for (const scope of ['workspace', 'organisation', 'deployment'] as const) {
    const top = hot.find((partition) => partition.scope === scope);
    const goal = scope === 'deployment' ? GOAL_SHARED_PARTITION : GOAL_TENANT_PARTITION;
    rows.push({
      figure: labels[scope],
      partition: top?.pattern ?? '(none)',
      wcu: top?.wcu ?? 0,
      wcu_per_question: round(top?.perQuestion ?? 0),
      questions_per_s: ceiling(top?.perQuestion ?? 0),
      goal: scope === 'deployment' ? `<= ${goal}` : `< ${goal}`,
      met: !top || (scope === 'deployment' ? top.perQuestion <= goal : top.perQuestion < goal) ? 'yes' : 'no',
    });
  }
  // At scale: a workspace's lists written across shards spread over all of them (hashed ids fill a
  // few shards unevenly with 4 conversations a workspace; thousands a second fill them evenly).
  const workspaceTop = workspaceAtScale(result);
  rows.splice(
    rows.findIndex((row) => String(row.figure).startsWith('hottest organisation')),
    0,
    {
      figure: '  the same at scale: a workspace list over all its shards',
      partition: workspaceTop ? `${workspaceTop.pattern} (${workspaceTop.shards})` : '(none)',
      wcu: workspaceTop?.wcu ?? 0,
      wcu_per_question: round(workspaceTop?.atScale ?? 0),
      questions_per_s: ceiling(workspaceTop?.atScale ?? 0),
      goal: `< ${GOAL_TENANT_PARTITION}`,
      met: (workspaceTop?.atScale ?? 0) < GOAL_TENANT_PARTITION ? 'yes' : 'no',
    },
  );
  // At scale: each shared key pattern's writes spread over all its shards.
  const busiest = sharedFamilies(result).sort((a, b) => (b.atScale ?? 0) - (a.atScale ?? 0))[0];
  rows.push({
    figure: '  the same at scale: the busiest shared key pattern over all its shards',
    partition: busiest ? `${busiest.family} (${busiest.shards ?? 1})` : '(none)',
    wcu: busiest?.total ?? 0,
    wcu_per_question: round(busiest?.atScale ?? 0, 3),
    questions_per_s: ceiling(busiest?.atScale ?? 0),
    goal: `<= ${GOAL_SHARED_PARTITION}`,
    met: (busiest?.atScale ?? 0) <= GOAL_SHARED_PARTITION ? 'yes' : 'no',
  });
  rows.push({
    figure: `setup, not counted above (${ORGS} sign-ups, ${ORGS * WORKSPACES_PER_ORG} workspaces)`,
    partition: '-',
    wcu: setup.wcu,
    wcu_per_question: '-',
    questions_per_s: '-',
    goal: '',
    met: '',
  });
  rows.push({
    figure: `questions; conversations with stats complete`,
    partition: '-',
    wcu: '-',
    wcu_per_question: `${questions}; ${result.statsComplete}/${result.conversations}`,
    questions_per_s: '-',
    goal: '',
    met: '',
  });
  return rows;
}

/** The 15 partitions written most (WCU), with their figure per question of their scope. */
export async function benchPartitionsTop(): Promise<Row[]> {
  return rowsOf(
    partitionsOf(await measurement())
      .sort((a, b) => b.wcu - a.wcu || b.perQuestion - a.perQuestion)
      .slice(0, 15),
  );
}

/**
 * How many shards each key pattern shared by all tenants has (the service's own constants): at
 * scale, hashed ids spread its writes evenly over all of them.
 */
const SHARDS: [RegExp, number][] = [
  [/^gsi[45]:DUE#/, DUE_SHARDS],
  [/^gsi3:DUE#/, APPROVAL_DUE_SHARDS],
  [/^gsi[25]:JOBPENDING#/, PENDING_SHARDS],
];

interface SharedFamily {
  family: string;
  wcus: number[];
  total: number;
  top: number;
  /** Its WCU per question spread over all its shards, as at scale; undefined when unsharded. */
  atScale?: number;
  shards?: number;
}

/** The lists of a workspace written across `LIST_SHARDS` partitions (platform/list-shards.ts; shard 0 is the unsharded key). */
const LIST_SHARDED = [/^gsi[12]:WSCONV#/, /^table:WSACT#/];

/**
 * Every workspace partition as at scale: a sharded list's writes in a workspace spread over all its
 * shards, any other partition as it is; per question of its workspace, the busiest.
 */
function workspaceAtScale({ load, tenants }: Measured) {
  const groups = new Map<string, { wcu: number; questions: number; shards: number }>();
  for (const [partition, wcu] of load.partitions) {
    const { scope, questions } = scopeOf(partition, tenants);
    if (scope !== 'workspace') continue;
    const sharded = LIST_SHARDED.some((pattern) => pattern.test(partition));
    const list = sharded ? partition.replace(/#[1-9]\d*$/, '') : partition;
    const group = groups.get(list) ?? { wcu: 0, questions, shards: sharded ? LIST_SHARDS : 1 };
    group.wcu += wcu;
    groups.set(list, group);
  }
  return [...groups]
    .map(([list, group]) => ({
      pattern: `${patternOf(list, tenants)}${group.shards > 1 ? '#<n>' : ''}`,
      wcu: group.wcu,
      shards: group.shards,
      atScale: group.wcu / group.shards / group.questions,
    }))
    .sort((a, b) => b.atScale - a.atScale)[0];
}

/** The partitions shared by all tenants, by key pattern (shard numbers as `<n>`). */
function sharedFamilies({ load, questions, tenants }: Measured): SharedFamily[] {
  const groups = new Map<string, number[]>();
  for (const [partition, wcu] of load.partitions) {
    if (scopeOf(partition, tenants).scope !== 'deployment') continue;
    const family = patternOf(partition, tenants).replace(/#\d+(?=#|$)/g, '#<n>');
    groups.set(family, [...(groups.get(family) ?? []), wcu]);
  }
  return [...groups].map(([family, wcus]) => {
    const total = wcus.reduce((sum, wcu) => sum + wcu, 0);
    const shards = SHARDS.find(([pattern]) => pattern.test(family))?.[1];
    return {
      family,
      wcus,
      total,
      top: Math.max(...wcus),
      ...(shards ? { shards, atScale: total / shards / questions } : { atScale: total / questions }),
    };
  });
}

/**
 * The partitions shared by all tenants, by key pattern: how many of its partitions were written,
 * their WCU in all, and the hottest one's and the mean one's per question of all (with few
 * conversations, hashed shards fill unevenly: the hottest one overstates), and its WCU per question
 * spread over all its shards, as at scale.
 */
export async function benchPartitionsShared(): Promise<Row[]> {
  const measured = await measurement();
  return sharedFamilies(measured)
    .sort((a, b) => b.top - a.top || b.total - a.total)
    .slice(0, 10)
    .map(({ family, wcus, total, top, shards, atScale }) => ({
      partitions: family,
      shards: shards ?? 1,
      written: wcus.length,
      wcu: total,
      hottest_wcu_per_question: round(top / measured.questions),
      mean_wcu_per_question: round(total / wcus.length / measured.questions),
      at_scale_wcu_per_question: round(atScale ?? 0, 3),
      questions_per_s: ceiling(top / measured.questions),
    }));
}

function rowsOf(partitions: Hot[]): Row[] {
  return partitions.map((partition) => ({
    partition: partition.pattern,
    scope: partition.scope,
    wcu: partition.wcu,
    wcu_per_question_of_scope: round(partition.perQuestion),
    questions_per_s: ceiling(partition.perQuestion),
  }));
}

/** Write units per item type (partition and sort-key prefixes), base item and index entries. */
export async function benchPartitionsItemTypes(): Promise<Row[]> {
  const { load, questions } = await measurement();
  return [...load.itemTypes]
    .sort(([, a], [, b]) => b.base + b.index - (a.base + a.index))
    .map(([type, figures]) => ({
      item_type: type,
      writes: figures.items,
      writes_per_question: round(figures.items / questions, 2),
      base_wcu: figures.base,
      index_wcu: figures.index,
      wcu_per_question: round((figures.base + figures.index) / questions, 2),
    }));
}

/** Index entries put, deleted and updated per index. */
export async function benchPartitionsIndexes(): Promise<Row[]> {
  const { load, questions } = await measurement();
  return [...load.indexWrites]
    .sort(([a], [b]) => (a < b ? -1 : 1))
    .map(([index, writes]) => {
      const wcu = [...load.partitions]
        .filter(([partition]) => partition.startsWith(`${index}:`))
        .reduce((sum, [, value]) => sum + value, 0);
      return { index, puts: writes.put, deletes: writes.delete, updates: writes.update, wcu, wcu_per_question: round(wcu / questions, 2) };
    });
}

/** Store calls the service made, per operation (reads too). */
export async function benchPartitionsCalls(): Promise<Row[]> {
  const { load, questions } = await measurement();
  return [...load.operations]
    .sort(([, a], [, b]) => b - a)
    .map(([operation, calls]) => ({ operation, calls, per_question: round(calls / questions, 2) }));
}

/**
 * The same load with every conversation left to its timers (open → cold → closed, then its stats),
 * as most conversations end: write units per question in all, and per item type.
 */
export async function benchPartitionsTimed(): Promise<Row[]> {
  const { load, questions, statsComplete, conversations } = await measurement('timer');
  const perQuestion = (wcu: number) => round(wcu / questions, 2);
  return [
    {
      item_type: `all (${questions} questions; stats complete ${statsComplete}/${conversations})`,
      writes: '-',
      base_wcu: load.baseWcu,
      index_wcu: load.indexWcu,
      wcu_per_question: perQuestion(load.wcu),
    },
    ...[...load.itemTypes]
      .sort(([, a], [, b]) => b.base + b.index - (a.base + a.index))
      .map(([type, figures]) => ({
        item_type: type,
        writes: figures.items,
        base_wcu: figures.base,
        index_wcu: figures.index,
        wcu_per_question: perQuestion(figures.base + figures.index),
      })),
  ];
}
