import { type Answer, type Schemas, useRefresh } from '../../../api/client';
import { count, percent } from '../../../ui/format';

export type EvalCase = Schemas['EvalCase'];
export type CaseInput = Schemas['EvalCaseInput'];
export type Expect = Schemas['EvalExpect'];
/** A run without its results (the generated type is nullable: the list's `last_run` shares the schema). */
export type RunSummary = NonNullable<Schemas['EvalRunSummary']>;
export type Run = Answer<'/api/workspaces/{id}/evals/{eval_id}/runs/{run_id}'>['run'];
export type CaseResult = Schemas['EvalCaseResult'];
export type Overrides = Schemas['EvalOverrides'];

/** How often a page asks again about a run that is queued or running. */
export const POLL_EVERY_MS = 1_500;

/** The runs of a list answer (typed nullable by the generator; none is null). */
export const runsOf = (data: { runs: (RunSummary | null)[] } | undefined): RunSummary[] =>
  (data?.runs ?? []).filter((run): run is RunSummary => run !== null);

export const isUnderWay = (run: Pick<RunSummary, 'status'> | null | undefined) => run?.status === 'queued' || run?.status === 'running';

/** Everything that shows evaluations or their runs, to read again after a change. */
export const useRefreshEvals = () =>
  useRefresh(
    '/api/workspaces/{id}/evals',
    '/api/workspaces/{id}/evals/{eval_id}',
    '/api/workspaces/{id}/evals/{eval_id}/runs',
    '/api/workspaces/{id}/evals/{eval_id}/runs/{run_id}',
  );

export const evalsPath = (workspaceId: string) => `/workspaces/${workspaceId}/evals`;
export const evalPath = (workspaceId: string, evalId: string) => `${evalsPath(workspaceId)}/${evalId}`;
export const runPath = (workspaceId: string, evalId: string, runId: string) => `${evalPath(workspaceId, evalId)}/runs/${runId}`;

/** Tool names as typed: separated by commas or line breaks; blanks dropped. */
const toolsOf = (text: string) =>
  text
    .split(/[\n,]+/)
    .map((part) => part.trim())
    .filter(Boolean);

/** Texts as typed: one a line (a text may hold a comma); blank lines dropped. */
const textsOf = (text: string) =>
  text
    .split('\n')
    .map((part) => part.trim())
    .filter(Boolean);

/** An expectation from the editor's fields: only what was filled in. */
export function expectOf(fields: { tools: string; tools_not: string; contains: string; not_contains: string; judge: string }): Expect {
  const expect: Expect = {};
  const tools = toolsOf(fields.tools);
  const toolsNot = toolsOf(fields.tools_not);
  const contains = textsOf(fields.contains);
  const notContains = textsOf(fields.not_contains);
  if (tools.length) expect.tools = tools;
  if (toolsNot.length) expect.tools_not = toolsNot;
  if (contains.length) expect.contains = contains;
  if (notContains.length) expect.not_contains = notContains;
  if (fields.judge.trim()) expect.judge = fields.judge.trim();
  return expect;
}

const quoted = (texts: string[]) => texts.map((text) => `“${text}”`);

/** "a", "a and b", "a, b and c". */
export function andList(items: string[]): string {
  if (items.length <= 1) return items.join('');
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`;
}

/** What a case expects, one sentence each. */
export function expectationsInWords(expect: Expect): string[] {
  const lines: string[] = [];
  if (expect.tools?.length) lines.push(`Calls ${andList(expect.tools)}.`);
  if (expect.tools_not?.length) lines.push(`Does not call ${andList(expect.tools_not)}.`);
  if (expect.contains?.length) lines.push(`The answer contains ${andList(quoted(expect.contains))} (case does not matter).`);
  if (expect.not_contains?.length) lines.push(`The answer does not contain ${andList(quoted(expect.not_contains))}.`);
  if (expect.judge) lines.push(`The model grades the answer against this rubric: ${expect.judge}`);
  return lines;
}

/** The settings a run tried, in words. */
export function overridesInWords(overrides: Overrides): string {
  const parts: string[] = [];
  if (overrides.model) parts.push(`model ${overrides.model}`);
  if (overrides.system_prompt !== undefined) parts.push('another system prompt');
  return parts.length ? `Tried ${andList(parts)}` : 'The workspace’s settings';
}

/** A run's score, or what it is doing instead. */
export function scoreText(run: Pick<RunSummary, 'status' | 'score'>): string {
  if (run.score !== null) return percent(run.score);
  return run.status === 'failed' ? 'none (failed)' : `none yet (${run.status})`;
}

const when = new Intl.DateTimeFormat('en-GB', { dateStyle: 'medium', timeStyle: 'medium' });

/** When a run started, to the second (runs of a minute apart are told apart); a queued one has not. */
export const runTime = (run: Pick<RunSummary, 'started_at'>) => (run.started_at ? when.format(new Date(run.started_at)) : 'not started');

/** A run's name in links and captions: when it started, or its id while it waits. */
export const runName = (run: Pick<RunSummary, 'id' | 'started_at'>) => (run.started_at ? `Run of ${runTime(run)}` : `Run ${run.id}`);

/** Tokens as the playground says them: "1,730 in (800 from cache) / 60 out", "in" counting cache reads and writes. */
export function tokensText(tokens: Schemas['Tokens']): string {
  const input = tokens.input + tokens.cache_read + tokens.cache_write;
  const cached = tokens.cache_read ? ` (${count(tokens.cache_read)} from cache)` : '';
  return `${count(input)} in${cached} / ${count(tokens.output)} out`;
}
