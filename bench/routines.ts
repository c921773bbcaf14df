import { setTimeout as sleep } from 'node:timers/promises';
import { MAX_ROUTINES_PER_ORG } from '../shared/routines/schemas.js';
import { percentile, type Row } from './report.js';
import {
  createRoutines,
  deliver,
  inParallel,
  listed,
  runsOf,
  signUpOrgs,
  startRoutineService,
  storeCalls,
  WRITE_OPERATIONS,
  type BenchOrg,
  type BenchRoutine,
  type ListedRun,
} from './routines-setup.js';

/*
 * Routines at scale (issue 50, "Measure"; docs/routines-bench.md): 1 000 routines of 10
 * organisations (100 each, the most one may have) all due in the same minute, on `npm start` with
 * its defaults (routines-setup.ts). Each routine's cron names one minute of the day, the first
 * whole minute at least CREATE_MARGIN_MS after the start (so they are all made before it, and none
 * fires before or after it during the benchmark). For each run: its delay from the scheduled time
 * to when it was made (the fire job), started (`started_at`) and finished; per routine, its runs of
 * that time (none: missed; more than one: twice) and the model calls its prompt made (more than
 * one: asked twice). Then 200 webhook routines, 20 in each organisation in place of 20 deleted
 * scheduled ones (one address signs up at most 10 organisations an hour), each delivery sent 4 times
 * (the original and 3 redeliveries, one delivery id), half all at once, half one after another: the
 * answers (one 202, three 200, one run id) and the runs each delivery made. The store's write calls
 * (the latency proxy counts them) from just before the due minute until every run is over, per run.
 */

const ORGS = 10;
const PER_ORG = MAX_ROUTINES_PER_ORG;
/** Webhook routines per organisation, made where as many scheduled ones were deleted (sign-ups are 10 an hour per address). */
const HOOKS_PER_ORG = 20;
/** The due minute is the first whole minute at least this long after the routines start being made. */
const CREATE_MARGIN_MS = 75_000;
/** How long without a run finishing before the benchmark stops waiting (a run missed, or stuck). */
const STALL_MS = 120_000;
const POLL_MS = 2_000;
/** After the last run ended: its job's ledger writes and the last-run updates land. */
const SETTLE_MS = 3_000;
const GOAL_P99_S = 60;

type Calls = Record<string, number>;

interface ScheduledPhase {
  dueAt: string;
  routines: BenchRoutine[];
  runs: ListedRun[][];
  modelCalls: Map<string, number>;
  writes: Calls;
  idle: { calls: Calls; minutes: number };
  createSeconds: number;
}

interface HookDelivery {
  mode: 'at once' | 'one after another';
  routine: BenchRoutine;
  deliveryId: string;
  sentAt: number;
  answers: { status: number; runId: string }[];
}

interface WebhookPhase {
  deliveries: HookDelivery[];
  runs: ListedRun[][];
  modelCalls: Map<string, number>;
  writes: Calls;
}

const seconds = (ms: number) => Math.round(ms / 10) / 100;
const diff = (after: Calls, before: Calls): Calls =>
  Object.fromEntries(Object.entries(after).map(([op, n]) => [op, n - (before[op] ?? 0)]));
const isOver = (status: string | undefined) => status !== undefined && status !== 'queued' && status !== 'running';

/**
 * Waits until every routine's last run is over and is the one `expected` names (undefined: any), or
 * no run ended for STALL_MS. Polls the organisations' routine lists (one request each).
 */
async function waitForRuns(orgs: BenchOrg[], routines: BenchRoutine[], expected?: string): Promise<void> {
  let over = -1;
  let progressAt = Date.now();
  while (Date.now() - progressAt < STALL_MS) {
    const views = await listed(orgs);
    const now = routines.filter((routine) => {
      const last = views.get(routine.id)?.last_run;
      return last && (expected === undefined || last.id === expected) && isOver(last.status);
    }).length;
    if (now === routines.length) return;
    if (now !== over) progressAt = Date.now();
    over = now;
    await sleep(POLL_MS);
  }
  console.log(`routines bench: stopped waiting, ${over} of ${routines.length} routines' runs over`);
}

/** The scheduled time's run id (shared/routines/runs.ts: the time is the id). */
const scheduledRunId = (at: Date) => `run_${at.getTime().toString(36).padStart(9, '0')}0000sched`;

async function measureScheduled(setup: Awaited<ReturnType<typeof startRoutineService>>, orgs: BenchOrg[]): Promise<ScheduledPhase> {
  const started = Date.now();
  const due = new Date(Math.ceil((started + CREATE_MARGIN_MS) / 60_000) * 60_000);
  const trigger = { schedule: `${due.getUTCMinutes()} ${due.getUTCHours()} * * *`, timezone: 'UTC' };
  const routines = await createRoutines(orgs, PER_ORG, trigger, 's');
  const created = Date.now();
  if (created > due.getTime() - 5_000)
    throw new Error(`making the routines took until ${new Date(created).toISOString()}, due ${due.toISOString()}`);
  // The store at rest (the periodic wake-up, the chat bridge's poll), for comparison.
  await sleep(5_000);
  const idleFrom = { calls: storeCalls(setup.store), at: Date.now() };
  await sleep(due.getTime() - 2_000 - Date.now());
  const before = storeCalls(setup.store);
  const idle = { calls: diff(before, idleFrom.calls), minutes: (Date.now() - idleFrom.at) / 60_000 };
  console.log(`routines bench: ${routines.length} routines made in ${seconds(created - started)} s, due at ${due.toISOString()}`);
  await sleep(due.getTime() - Date.now());
  await waitForRuns(orgs, routines, scheduledRunId(due));
  await sleep(SETTLE_MS);
  const writes = diff(storeCalls(setup.store), before);
  const runs = await runsOf(routines);
  return {
    dueAt: due.toISOString(),
    routines,
    runs,
    modelCalls: new Map(setup.modelCalls),
    writes,
    idle,
    createSeconds: seconds(created - started),
  };
}

/** One delivery sent 4 times (the original and 3 redeliveries, one delivery id): all at once, or one after another. */
async function sendFourTimes(url: string, routine: BenchRoutine, mode: HookDelivery['mode']): Promise<HookDelivery> {
  const deliveryId = `ticket-${routine.mark}-opened`;
  const body = JSON.stringify({ ticket: { id: routine.mark, title: 'Checkout fails with error 502', body: 'Since 9:40 …' } });
  const sentAt = Date.now();
  const answers = mode === 'at once' ? await Promise.all(Array.from({ length: 4 }, () => deliver(url, routine, deliveryId, body))) : [];
  for (let n = 0; mode === 'one after another' && n < 4; n += 1) answers.push(await deliver(url, routine, deliveryId, body));
  return { mode, routine, deliveryId, sentAt, answers };
}

async function measureWebhooks(
  setup: Awaited<ReturnType<typeof startRoutineService>>,
  orgs: BenchOrg[],
  scheduled: BenchRoutine[],
): Promise<WebhookPhase> {
  // Room for the webhook routines: the organisations are at their most (a delete gives the place back).
  const leaving = orgs.flatMap((org) => scheduled.filter((routine) => routine.org === org).slice(0, HOOKS_PER_ORG));
  await inParallel(leaving, 20, (routine) =>
    routine.org.api.call('DELETE', `/api/workspaces/${routine.org.workspace}/routines/${routine.id}`),
  );
  const hooks = await createRoutines(orgs, HOOKS_PER_ORG, { webhook: true }, 'w');
  await setup.store.settle(500);
  const before = storeCalls(setup.store);
  const modelBefore = new Map(setup.modelCalls);
  const deliveries = await inParallel(hooks, 20, (routine, index) =>
    sendFourTimes(setup.url, routine, index < hooks.length / 2 ? 'at once' : 'one after another'),
  );
  await waitForRuns(orgs, hooks);
  await sleep(SETTLE_MS);
  const writes = diff(storeCalls(setup.store), before);
  const runs = await runsOf(hooks);
  const modelCalls = new Map([...setup.modelCalls].map(([mark, n]) => [mark, n - (modelBefore.get(mark) ?? 0)]));
  return { deliveries, runs, modelCalls, writes };
}

interface Measured {
  scheduled: ScheduledPhase;
  webhooks: WebhookPhase;
}

async function measure(): Promise<Measured> {
  const setup = await startRoutineService();
  try {
    const orgs = await signUpOrgs(setup.url, ORGS, 'admin');
    const scheduled = await measureScheduled(setup, orgs);
    const webhooks = await measureWebhooks(setup, orgs, scheduled.routines);
    return { scheduled, webhooks };
  } catch (error) {
    const { exitCode, signalCode } = setup.service.child;
    const state = exitCode === null && signalCode === null ? 'still running' : `exited (${exitCode ?? signalCode})`;
    throw new Error(`routines benchmark failed; the service ${state}, its last output:\n${setup.service.output().slice(-4000)}`, {
      cause: error,
    });
  } finally {
    await setup.stop();
  }
}

let measurement: Promise<Measured> | undefined;
const measured = () => {
  measurement ??= measure();
  return measurement;
};

/** Each routine's run of the due time: the first listed (none: missed). */
function runsOfDue(phase: ScheduledPhase) {
  return phase.routines.map((routine, index) => {
    const ofDue = (phase.runs[index] ?? []).filter((run) => run.scheduled_at === phase.dueAt);
    return { routine, ofDue, run: ofDue[0], asked: phase.modelCalls.get(routine.mark) ?? 0 };
  });
}

function delayRow(step: string, delays: number[], goal?: number): Row {
  const p99 = percentile(delays, 99);
  return {
    step,
    runs: delays.length,
    p50_s: percentile(delays, 50),
    p99_s: p99,
    max_s: percentile(delays, 100),
    ...(goal === undefined ? {} : { goal: `p99 <= ${goal} s`, goal_met: delays.length && p99 <= goal ? 'yes' : 'no' }),
  };
}

/** The headline: each run's delay from its scheduled time. */
export async function benchRoutines(): Promise<Row[]> {
  const { scheduled } = await measured();
  const due = Date.parse(scheduled.dueAt);
  const runs = runsOfDue(scheduled).flatMap(({ run }) => (run ? [run] : []));
  const after = (time: string | null | undefined) => (time ? [(Date.parse(time) - due) / 1000] : []);
  return [
    delayRow(
      'made (fire job: run queued)',
      runs.flatMap((run) => after(run.created_at)),
    ),
    delayRow(
      'started (started_at)',
      runs.flatMap((run) => after(run.started_at)),
      GOAL_P99_S,
    ),
    delayRow(
      'finished (finished_at)',
      runs.flatMap((run) => after(run.finished_at)),
    ),
  ];
}

/** Missed and doubled runs of the due minute, and how fast the runs drained. */
export async function benchRoutineCounts(): Promise<Row[]> {
  const { scheduled } = await measured();
  const perRoutine = runsOfDue(scheduled);
  const started = perRoutine.flatMap(({ run }) => (run?.started_at ? [Date.parse(run.started_at)] : []));
  const spanMinutes = (Math.max(...started) - Math.min(...started)) / 60_000;
  const statuses = new Map<string, number>();
  for (const { run } of perRoutine) if (run) statuses.set(run.status, (statuses.get(run.status) ?? 0) + 1);
  const modelCalls = perRoutine.reduce((sum, { asked }) => sum + asked, 0);
  return [
    {
      routines: perRoutine.length,
      organisations: ORGS,
      made_in_s: scheduled.createSeconds,
      due_at: scheduled.dueAt,
      runs: perRoutine.filter(({ run }) => run).length,
      statuses: [...statuses].map(([status, n]) => `${status} ${n}`).join(', '),
      missed: perRoutine.filter(({ ofDue }) => ofDue.length === 0).length,
      twice: perRoutine.filter(({ ofDue }) => ofDue.length > 1).length,
      model_not_asked: perRoutine.filter(({ asked }) => asked === 0).length,
      model_asked_twice: perRoutine.filter(({ asked }) => asked > 1).length,
      model_calls_per_run: Math.round((modelCalls / Math.max(1, started.length)) * 100) / 100,
      runs_started_per_min: spanMinutes > 0 ? Math.round(started.length / spanMinutes) : started.length,
    },
  ];
}

/** Webhook deliveries sent 4 times each: the answers, and the runs each delivery made. */
export async function benchRoutineWebhooks(): Promise<Row[]> {
  const { webhooks } = await measured();
  const rows: Row[] = [];
  for (const mode of ['at once', 'one after another'] as const) {
    const deliveries = webhooks.deliveries.map((delivery, index) => ({ delivery, runs: webhooks.runs[index] ?? [] }));
    const ofMode = deliveries.filter(({ delivery }) => delivery.mode === mode);
    const answers = ofMode.flatMap(({ delivery }) => delivery.answers);
    const runCounts = ofMode.map(({ delivery, runs }) => runs.filter((run) => run.delivery_id === delivery.deliveryId).length);
    const asked = ofMode.map(({ delivery }) => webhooks.modelCalls.get(delivery.routine.mark) ?? 0);
    const startDelays = ofMode.flatMap(({ delivery, runs }) =>
      runs.flatMap((run) => (run.started_at ? [(Date.parse(run.started_at) - delivery.sentAt) / 1000] : [])),
    );
    const range = (values: number[]) => `${Math.min(...values)}–${Math.max(...values)}`;
    rows.push({
      delivery: `original + 3 redeliveries ${mode}`,
      deliveries: ofMode.length,
      requests: answers.length,
      answered_202: answers.filter((answer) => answer.status === 202).length,
      answered_200: answers.filter((answer) => answer.status === 200).length,
      answered_other: answers.filter((answer) => answer.status !== 200 && answer.status !== 202).length,
      one_202_per_delivery: ofMode.filter(({ delivery }) => delivery.answers.filter((a) => a.status === 202).length === 1).length,
      one_run_id_per_delivery: ofMode.filter(({ delivery }) => new Set(delivery.answers.map((a) => a.runId)).size === 1).length,
      runs_per_delivery: range(runCounts),
      model_calls_per_delivery: range(asked),
      start_p50_s: percentile(startDelays, 50),
      start_p99_s: percentile(startDelays, 99),
    });
  }
  return rows;
}

function writesRow(phase: string, calls: Calls, per: number, unit: string): Row {
  const writes = WRITE_OPERATIONS.reduce((sum, op) => sum + (calls[op] ?? 0), 0);
  const each = (n: number) => Math.round((n / per) * 10) / 10;
  return {
    phase,
    per: `${Math.round(per * 100) / 100} ${unit}`,
    write_calls: each(writes),
    ...Object.fromEntries(WRITE_OPERATIONS.map((op) => [op, each(calls[op] ?? 0)])),
    all_calls: each(calls.all ?? 0),
  };
}

/** The store's write calls per run (and all its calls, reads and the benchmark's polling included). */
export async function benchRoutineWrites(): Promise<Row[]> {
  const { scheduled, webhooks } = await measured();
  const runs = runsOfDue(scheduled).filter(({ run }) => run).length;
  return [
    writesRow('scheduled: from 2 s before the due minute to every run over', scheduled.writes, runs, 'runs'),
    writesRow('webhook: 4 requests each, to every run over', webhooks.writes, webhooks.deliveries.length, 'deliveries (runs)'),
    writesRow(
      'at rest before the due minute (the periodic wake-up, the chat bridge)',
      scheduled.idle.calls,
      scheduled.idle.minutes,
      'minutes',
    ),
  ];
}
