import { z } from '@hono/zod-openapi';
import { LRUCache } from 'lru-cache';
import { RE2JS, RE2JSSyntaxException } from 're2js';
import type { Deps } from '../deps.js';
import { displayName } from '../http/schemas.js';
import { errorMessage, NotFoundError, ValidationError } from '../platform/errors.js';
import { globToRegExp } from '../platform/globs.js';
import { newId } from '../platform/ids.js';
import { keys } from '../platform/keys.js';
import { isConditionFailed, type Key } from '../platform/table.js';
import { addWorkspaceCounters } from '../workspaces/counters.js';
import { getWorkspaceItem } from '../workspaces/workspaces.js';

export const GUARDRAIL_TYPES = ['block_pattern', 'redact_pattern', 'block_tool'] as const;
export type GuardrailType = (typeof GUARDRAIL_TYPES)[number];
/**
 * The presets, in RE2 syntax like every pattern guardrail. A phone number starts with a `+` or a
 * digit that no letter, digit or `_` precedes (`\B\+`, `\b` then a digit), and no letter, digit
 * or `_` follows it (`\b` after its last digit), so it is never part of a longer number or word:
 * what the lookbehind `(?<![\w+])` and lookahead `(?!\w)` of the JavaScript version said, which RE2
 * has no syntax for.
 */
export const PRESETS = {
  email: { name: 'E-mail addresses', pattern: '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}' },
  card_number: { name: 'Card numbers', pattern: '\\b(?:\\d[ -]?){12,18}\\d\\b' },
  phone_number: { name: 'Phone numbers', pattern: '(?:\\B\\+|\\b)\\d{1,3}?[ .-]?\\(?\\d{2,4}\\)?[ .-]?\\d{3,4}[ .-]?\\d{3,4}\\b' },
} as const;
export type PresetName = keyof typeof PRESETS;

/**
 * Preset patterns as stored before guardrails ran on RE2, and what they are now. Guardrails made
 * from a preset keep the preset's pattern, so workspaces with the old phone preset still have its
 * lookaround, which RE2 refuses: it is read as the new preset (and written so on the next change).
 */
const LEGACY_PRESET_PATTERNS: ReadonlyMap<string, string> = new Map([
  ['(?<![\\w+])\\+?\\d{1,3}?[ .-]?\\(?\\d{2,4}\\)?[ .-]?\\d{3,4}[ .-]?\\d{3,4}(?!\\w)', PRESETS.phone_number.pattern],
]);

/** A pattern as it is matched: itself, unless it is an old preset pattern RE2 cannot read. */
export function currentPattern(pattern: string): string {
  return LEGACY_PRESET_PATTERNS.get(pattern) ?? pattern;
}

export interface Guardrail {
  id: string;
  name: string;
  type: GuardrailType;
  pattern: string;
  action: 'block' | 'redact';
  applies_to: 'input' | 'output' | 'both' | 'tools';
  enabled: boolean;
}

export interface GuardrailItem extends Guardrail, Key {
  created_at: string;
  updated_at: string;
}

export const REDACTED = '[redacted]';
const MAX_PATTERN = 500;

/*
 * Pattern guardrails run on RE2JS, a JavaScript port of RE2, not on JavaScript's RegExp. Admins of
 * any organisation write them (anyone who signs up is the admin of their own), and they run on
 * every member's question and every answer, in a process all tenants share. RegExp backtracks: a
 * pattern such as `x(a+)+y` takes time exponential in the length of a text that almost matches, and
 * Node cannot interrupt it. RE2 simulates every way of matching at once, in time proportional to
 * the length of the text times the size of the compiled pattern, whatever the pattern. The price is
 * the syntax that needs backtracking: lookahead, lookbehind, backreferences, atomic groups and
 * possessive quantifiers are refused when the guardrail is written.
 */

/**
 * Case-insensitive, as the `i` flag was. RE2JS reads a JavaScript string by code point, as the `u`
 * flag did, and each use below looks at every match, as the `g` flag did.
 */
const PATTERN_FLAGS = RE2JS.CASE_INSENSITIVE;

/**
 * The most instructions a compiled pattern may have. Matching time is linear in the text but also
 * in this size, and counted repetitions multiply it: `.{0,1000}` written 55 times fits in 500
 * characters, compiles to 110 000 instructions and takes over a minute on a 5 000-character text.
 * 1 000 is twice the longest pattern allowed, so only a pattern with large counts in `{n,m}`
 * reaches it; at this size the worst pattern takes about 20 µs per character of text.
 */
export const MAX_PROGRAM_SIZE = 1000;

/**
 * The most steps (compiled instructions) all enabled pattern guardrails of one workspace may add up
 * to. Screening a text costs about 0.02 µs per step per character at worst (20 µs per character at
 * 1 000 steps), so this bounds the worst question (32 000 characters) at about 0.3 s of the shared
 * process, whatever the guardrails. The presets take 11 (e-mail), 65 (card numbers) and 38 (phone
 * numbers). Held by a conditional ADD on the workspace item, so parallel writes cannot exceed it.
 */
export const WORKSPACE_PATTERN_STEPS = 500;

/**
 * The most step-characters one query may screen on the way in: its question and the history a new
 * conversation starts with, times the steps of the guardrails that apply to them. A question alone
 * always fits (32 000 × 500); a long starting history may not, and is then refused with 400.
 */
export const SCREENING_BUDGET = 32_000 * WORKSPACE_PATTERN_STEPS;

/**
 * Compiled patterns by pattern text. Every query applies every guardrail of its workspace to each
 * message, and compiling costs far more than matching a short message. Bounded, since patterns are
 * written by any tenant. An entry is a compiled `RE2JS`, which keeps no match state between uses
 * (each use makes its own `Matcher`); it is only ever used through `matcher()`, never `test()`,
 * whose lazy DFA would keep up to 8 MB of states per pattern for as long as it is cached.
 */
const compiledPatterns = new LRUCache<string, RE2JS>({ max: 500 });

/** A compiled pattern, or why it was refused (the message of a 400 on `pattern`). */
type Compiled = { regex: RE2JS } | { problem: string };

/** Compiles a pattern once (then answers from the cache), or says why it cannot be used. */
function compilePattern(pattern: string): Compiled {
  const cached = compiledPatterns.get(pattern);
  if (cached) return { regex: cached };
  const tooLarge = (size: string) =>
    `too large once its repetitions are written out (${size} steps, at most ${MAX_PROGRAM_SIZE}): use smaller counts in {n,m}`;
  // Refused before compiling: a pattern like that takes up to a second to compile.
  const repeated = countedRepetitions(pattern);
  if (repeated > MAX_PROGRAM_SIZE) return { problem: tooLarge(`at least ${repeated}`) };
  let regex: RE2JS;
  try {
    regex = RE2JS.compile(pattern, PATTERN_FLAGS);
  } catch (error) {
    return { problem: `not a valid regular expression: ${describeCompileError(error, pattern)}` };
  }
  if (regex.programSize() > MAX_PROGRAM_SIZE) return { problem: tooLarge(String(regex.programSize())) };
  compiledPatterns.set(pattern, regex);
  return { regex };
}

/**
 * A lower bound on the instructions the counted repetitions of a pattern compile to, read from its
 * text: RE2 writes `x{n,m}` out as m copies of x (n and then x* for `x{n,}`), each at least one
 * instruction. Braces that are escaped, in a character class, or part of `\x{…}`, `\p{…}` or
 * `\Q…\E` are not repetitions. Only a shortcut past the compiler for the worst patterns: the
 * compiled size decides.
 */
function countedRepetitions(pattern: string): number {
  let total = 0;
  let inClass = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i];
    if (char === '\\') {
      const next = pattern[i + 1];
      if (next === 'Q') {
        const end = pattern.indexOf('\\E', i + 2);
        i = end < 0 ? pattern.length : end + 1;
      } else if ((next === 'x' || next === 'p' || next === 'P') && pattern[i + 2] === '{') {
        const end = pattern.indexOf('}', i + 3);
        i = end < 0 ? pattern.length : end;
      } else {
        i++;
      }
    } else if (inClass) {
      if (char === ']') inClass = false;
    } else if (char === '[') {
      inClass = true;
      if (pattern[i + 1] === '^') i++;
      if (pattern[i + 1] === ']') i++;
    } else if (char === '{') {
      const counts = /^\{(\d+)(?:,(\d*))?\}/.exec(pattern.slice(i, i + 24));
      if (counts) total += Number(counts[2] || counts[1]);
    }
  }
  return total;
}

/** JavaScript syntax RE2 refuses, told apart by what RE2JS reports and the text it stopped at. */
const UNSUPPORTED: { says: string; matches: (error: string, at: string, pattern: string) => boolean }[] = [
  { says: 'lookahead (?=…), (?!…): lookaround and backreferences are not supported', matches: (_error, at) => /^\(\?[=!]/.test(at) },
  { says: 'lookbehind (?<=…), (?<!…): lookaround and backreferences are not supported', matches: (_error, at) => /^\(\?<[=!]/.test(at) },
  {
    says: 'backreference (\\1, \\k<name>): lookaround and backreferences are not supported',
    matches: (_error, at, pattern) => /^\\([1-9]|k)/.test(at) || (at === '(?P' && pattern.includes('(?P=')),
  },
  { says: 'atomic group (?>…): not supported, use (?:…)', matches: (_error, at) => at.startsWith('(?>') },
  {
    says: 'possessive quantifier (a++, a*+, a?+): not supported, use a+, a*, a?',
    matches: (error, at) => error === 'invalid nested repetition operator' && at.endsWith('+'),
  },
  { says: '\\u escape: not supported, write \\x{00e9} or the character itself', matches: (_error, at) => at === '\\u' },
];

/**
 * What RE2JS's refusal of a pattern means, for the 400. JavaScript features RE2 lacks are named as
 * such (RE2JS calls a lookbehind an "invalid named capture" and a backreference an "invalid escape
 * sequence"), since patterns written for JavaScript are the likely ones to meet them.
 */
function describeCompileError(error: unknown, pattern: string): string {
  if (!(error instanceof RE2JSSyntaxException)) return errorMessage(error);
  // RE2JS reads the case-insensitive flag as a `(?i)` written before the pattern.
  const at = error.input === null ? '' : error.input === `(?i)${pattern}` ? pattern : error.input;
  const unsupported = UNSUPPORTED.find((candidate) => candidate.matches(error.error, at, pattern));
  if (unsupported) return `${unsupported.says} (patterns are RE2 syntax)`;
  return at ? `${error.error}: \`${at}\`` : error.error;
}

export const GuardrailBody = z
  .object({
    preset: z.enum(['email', 'card_number', 'phone_number'], { error: 'must be email, card_number or phone_number' }).optional(),
    name: displayName().optional(),
    type: z.enum(GUARDRAIL_TYPES, { error: `must be one of ${GUARDRAIL_TYPES.join(', ')}` }).optional(),
    pattern: z.string().min(1).max(MAX_PATTERN, `must be at most ${MAX_PATTERN} characters`).optional(),
    action: z.enum(['block', 'redact'], { error: 'must be block or redact' }).optional(),
    applies_to: z.enum(['input', 'output', 'both', 'tools'], { error: 'must be input, output, both or tools' }).optional(),
    enabled: z.boolean().optional(),
  })
  .openapi('GuardrailRequest', {
    description: 'Either a preset (email, card_number, phone_number; redacted unless action is block), or a name, type and pattern.',
  });
export type GuardrailInput = z.infer<typeof GuardrailBody>;

const guardrailKey = (workspaceId: string, id: string): Key => ({ pk: keys.workspacePartition(workspaceId), sk: `GUARD#${id}` });

export function toGuardrail(item: Guardrail): Guardrail {
  const { id, name, type, pattern, action, applies_to, enabled } = item;
  return { id, name, type, pattern, action, applies_to, enabled };
}

const TOOL_GLOB = /^[A-Za-z0-9_*.-]+$/;

/** Resolves a request (a preset, or explicit fields) to a complete, valid guardrail definition. */
export function resolveGuardrail(input: GuardrailInput, current?: Guardrail): Omit<Guardrail, 'id'> {
  const problems: { path: string; message: string }[] = [];
  const preset = input.preset ? PRESETS[input.preset] : undefined;
  const type: GuardrailType | undefined =
    input.type ?? (preset ? (input.action === 'block' ? 'block_pattern' : 'redact_pattern') : current?.type);
  const name = input.name ?? preset?.name ?? current?.name;
  const given = input.pattern ?? preset?.pattern ?? current?.pattern;
  const pattern = given === undefined ? undefined : currentPattern(given);
  if (!type) problems.push({ path: 'type', message: 'required (or give a preset)' });
  if (!name) problems.push({ path: 'name', message: 'required (or give a preset)' });
  if (!pattern) problems.push({ path: 'pattern', message: 'required (or give a preset)' });
  const action = type === 'redact_pattern' ? 'redact' : 'block';
  if (input.action && type && input.action !== action) problems.push({ path: 'action', message: `a ${type} guardrail can only ${action}` });
  const appliesTo = type === 'block_tool' ? 'tools' : (input.applies_to ?? (current && current.type === type ? current.applies_to : undefined) ?? 'both');
  if (type === 'block_tool' && input.applies_to && input.applies_to !== 'tools') problems.push({ path: 'applies_to', message: 'a block_tool guardrail applies to tools' });
  if (type !== 'block_tool' && appliesTo === 'tools') problems.push({ path: 'applies_to', message: 'a pattern guardrail applies to input, output or both' });
  if (pattern && type === 'block_tool' && !TOOL_GLOB.test(pattern)) {
    problems.push({ path: 'pattern', message: 'a tool-name pattern: letters, digits, _ . - and * (any run of characters)' });
  }
  if (pattern && type && type !== 'block_tool') {
    const compiled = compilePattern(pattern);
    if ('problem' in compiled) problems.push({ path: 'pattern', message: compiled.problem });
  }
  if (problems.length || !type || !name || !pattern) throw new ValidationError('invalid request body', problems);
  return { name, type, pattern, action, applies_to: appliesTo, enabled: input.enabled ?? current?.enabled ?? true };
}

/** The steps a guardrail adds to its workspace's screening: its compiled size while it is an enabled pattern. */
export function stepsOf(guardrail: Pick<Guardrail, 'type' | 'pattern' | 'enabled'>): number {
  if (!guardrail.enabled || guardrail.type === 'block_tool') return 0;
  const compiled = compilePattern(currentPattern(guardrail.pattern));
  return 'problem' in compiled ? 0 : compiled.regex.programSize();
}

/**
 * Moves the workspace's pattern steps by `delta` (the `pattern_steps` attribute), refusing with 400
 * a change that would take them past `WORKSPACE_PATTERN_STEPS`.
 */
async function reserveSteps(deps: Deps, workspaceId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  try {
    await deps.table.update(keys.workspace(workspaceId), {
      update: 'ADD pattern_steps :delta',
      condition: delta < 0 ? 'attribute_exists(pk)' : 'attribute_exists(pk) AND (attribute_not_exists(pattern_steps) OR pattern_steps <= :room)',
      values: delta < 0 ? { ':delta': delta } : { ':delta': delta, ':room': WORKSPACE_PATTERN_STEPS - delta },
    });
  } catch (error) {
    if (!isConditionFailed(error)) throw error;
    throw new ValidationError('invalid request body', [
      {
        path: 'pattern',
        message: `the workspace's enabled patterns would take more than ${WORKSPACE_PATTERN_STEPS} steps together (this one takes ${delta}): disable or simplify another pattern first`,
      },
    ]);
  }
}

export async function createGuardrail(deps: Deps, orgId: string, workspaceId: string, input: GuardrailInput): Promise<Guardrail> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const definition = resolveGuardrail(input);
  await reserveSteps(deps, workspaceId, stepsOf(definition));
  const now = deps.clock.now();
  const id = newId('gr', now);
  const item: GuardrailItem = { ...guardrailKey(workspaceId, id), id, ...definition, created_at: now.toISOString(), updated_at: now.toISOString() };
  await deps.table.put(item);
  await addWorkspaceCounters(deps, workspaceId, { guardrail_count: 1 });
  return toGuardrail(item);
}

export async function updateGuardrail(deps: Deps, orgId: string, workspaceId: string, id: string, input: GuardrailInput): Promise<Guardrail> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const current = await deps.table.get<GuardrailItem>(guardrailKey(workspaceId, id), true);
  if (!current) throw new NotFoundError(`guardrail ${id} not found`);
  const definition = resolveGuardrail(input, current);
  const delta = stepsOf(definition) - stepsOf(current);
  await reserveSteps(deps, workspaceId, delta);
  const item: GuardrailItem = { ...current, ...definition, updated_at: deps.clock.now().toISOString() };
  try {
    await deps.table.put(item, { condition: 'attribute_exists(pk)' });
  } catch (error) {
    await reserveSteps(deps, workspaceId, -delta);
    if (isConditionFailed(error)) throw new NotFoundError(`guardrail ${id} not found`);
    throw error;
  }
  return toGuardrail(item);
}

export async function deleteGuardrail(deps: Deps, orgId: string, workspaceId: string, id: string): Promise<void> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const current = await deps.table.get<GuardrailItem>(guardrailKey(workspaceId, id), true);
  try {
    await deps.table.delete(guardrailKey(workspaceId, id), { condition: 'attribute_exists(pk)' });
  } catch (error) {
    if (isConditionFailed(error)) throw new NotFoundError(`guardrail ${id} not found`);
    throw error;
  }
  await addWorkspaceCounters(deps, workspaceId, { guardrail_count: -1 });
  if (current) await reserveSteps(deps, workspaceId, -stepsOf(current));
}

/** One guardrail hit, recorded as a violation. */
export interface GuardrailHit {
  guardrail: Guardrail;
  direction: 'input' | 'output' | 'tools';
  action: 'block' | 'redact';
  excerpt: string;
}

const applies = (guardrail: Guardrail, direction: 'input' | 'output') =>
  guardrail.enabled && guardrail.type !== 'block_tool' && (guardrail.applies_to === direction || guardrail.applies_to === 'both');

/**
 * The compiled pattern of a guardrail. A stored pattern RE2 refuses (written before guardrails ran
 * on RE2) fails the query rather than being skipped: a guardrail that silently stopped blocking or
 * redacting would let through what its admin meant to keep out.
 */
function regexOf(guardrail: Guardrail): RE2JS {
  const compiled = compilePattern(currentPattern(guardrail.pattern));
  if ('problem' in compiled) throw new Error(`guardrail ${guardrail.id} ("${guardrail.name}") cannot be applied, its pattern is ${compiled.problem}`);
  return compiled.regex;
}

/** What screening these texts in one direction costs, in step-characters (see `SCREENING_BUDGET`). */
export function screeningCost(guardrails: Guardrail[], texts: string[], direction: 'input' | 'output'): number {
  const steps = guardrails.filter((guardrail) => applies(guardrail, direction)).reduce((sum, guardrail) => sum + stepsOf(guardrail), 0);
  return steps * texts.reduce((sum, text) => sum + text.length, 0);
}

/**
 * Why a workspace's guardrails cannot run, if one of its enabled patterns no longer compiles (a
 * pattern saved before guardrails ran on RE2). The query then stops before anything is screened or
 * sent, and says so, instead of answering 500 or skipping the guardrail.
 */
export function unusableGuardrail(guardrails: Guardrail[]): string | undefined {
  for (const guardrail of guardrails) {
    if (!guardrail.enabled || guardrail.type === 'block_tool') continue;
    const compiled = compilePattern(currentPattern(guardrail.pattern));
    if ('problem' in compiled) {
      return `guardrail "${guardrail.name}" cannot be applied (its pattern is ${compiled.problem}); an admin must change or disable it`;
    }
  }
  return undefined;
}

/** Where the first match of a pattern in a text starts and ends (UTF-16 offsets), if any. */
function firstMatch(regex: RE2JS, text: string): { start: number; end: number } | undefined {
  const matcher = regex.matcher(text);
  return matcher.find() ? { start: matcher.start(), end: matcher.end() } : undefined;
}

/**
 * A text with every match of a pattern replaced by `[redacted]`, as `String.replace` with a `g`
 * pattern did (empty matches too). Built from the offsets of each match rather than with
 * `Matcher.replaceAll`, which extracts every capture group of every match for its replacer: time
 * that grows with the number of groups a pattern has.
 */
function redactMatches(regex: RE2JS, text: string): string {
  const matcher = regex.matcher(text);
  let result = '';
  let copied = 0;
  while (matcher.find()) {
    result += text.slice(copied, matcher.start()) + REDACTED;
    copied = matcher.end();
  }
  return result + text.slice(copied);
}

/** Every pattern guardrail of a direction replaced by `[redacted]`: what is safe to show or store. */
export function redactAll(guardrails: Guardrail[], text: string, direction: 'input' | 'output'): string {
  return guardrails.filter((guardrail) => applies(guardrail, direction)).reduce((result, guardrail) => redactMatches(regexOf(guardrail), result), text);
}

/** Up to 40 characters either side of a match, with the match and anything else sensitive redacted. */
function excerptAround(guardrails: Guardrail[], text: string, start: number, end: number, direction: 'input' | 'output'): string {
  const before = text.slice(Math.max(0, start - 40), start);
  const after = text.slice(end, end + 40);
  const excerpt = `${start > 40 ? '…' : ''}${before}${REDACTED}${after}${end + 40 < text.length ? '…' : ''}`;
  return redactAll(guardrails, excerpt, direction);
}

/**
 * Applies the pattern guardrails of one direction to a text: the first blocking match stops it;
 * redacting matches are replaced. Returns the text to use and the hits to record.
 */
export function applyGuardrails(
  guardrails: Guardrail[],
  text: string,
  direction: 'input' | 'output',
): { text: string; blockedBy: Guardrail | undefined; hits: GuardrailHit[] } {
  const hits: GuardrailHit[] = [];
  for (const guardrail of guardrails.filter((candidate) => applies(candidate, direction) && candidate.type === 'block_pattern')) {
    const regex = regexOf(guardrail);
    const match = firstMatch(regex, text);
    if (match) {
      hits.push({ guardrail, direction, action: 'block', excerpt: excerptAround(guardrails, text, match.start, match.end, direction) });
      return { text: redactAll(guardrails, redactMatches(regex, text), direction), blockedBy: guardrail, hits };
    }
  }
  let result = text;
  for (const guardrail of guardrails.filter((candidate) => applies(candidate, direction) && candidate.type === 'redact_pattern')) {
    const regex = regexOf(guardrail);
    const match = firstMatch(regex, result);
    if (!match) continue;
    hits.push({ guardrail, direction, action: 'redact', excerpt: excerptAround(guardrails, result, match.start, match.end, direction) });
    result = redactMatches(regex, result);
  }
  return { text: result, blockedBy: undefined, hits };
}

/**
 * The `block_tool` guardrail that keeps a tool from the model, if any. A tool has up to three names
 * (its MCP name, the name offered to the model, `<connection>__<tool>`) and a match on any blocks:
 * otherwise adding a second server with the same tool name would rename it past the guardrail.
 */
export function blockingGuardrail(guardrails: Guardrail[], toolNames: string | string[]): Guardrail | undefined {
  const names = typeof toolNames === 'string' ? [toolNames] : toolNames;
  return guardrails.find((guardrail) => {
    if (!guardrail.enabled || guardrail.type !== 'block_tool') return false;
    const glob = globToRegExp(guardrail.pattern);
    return names.some((name) => glob.test(name));
  });
}

/** Violation items of a query's hits (`WSVIOL#<workspace>`), written with the query's other items. */
export function violationItems(deps: Deps, workspaceId: string, conversationId: string, hits: GuardrailHit[]) {
  const now = deps.clock.now();
  const at = now.toISOString();
  return hits.map((hit) => {
    const id = newId('viol', now);
    return {
      pk: keys.violationsPartition(workspaceId),
      sk: `${at}#${id}`,
      id,
      guardrail_id: hit.guardrail.id,
      guardrail_name: hit.guardrail.name,
      conversation_id: conversationId,
      direction: hit.direction,
      action: hit.action,
      excerpt: hit.excerpt,
      created_at: at,
    };
  });
}
