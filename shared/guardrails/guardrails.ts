import { z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { displayName } from '../http/schemas.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { globToRegExp } from '../platform/globs.js';
import { backtracksCatastrophically } from './backtracking.js';
import { newId } from '../platform/ids.js';
import { keys } from '../platform/keys.js';
import { isConditionFailed, type Key } from '../platform/table.js';
import { addWorkspaceCounters } from '../workspaces/counters.js';
import { getWorkspaceItem } from '../workspaces/workspaces.js';

export const GUARDRAIL_TYPES = ['block_pattern', 'redact_pattern', 'block_tool'] as const;
export type GuardrailType = (typeof GUARDRAIL_TYPES)[number];
export const PRESETS = {
  email: { name: 'E-mail addresses', pattern: '[A-Za-z0-9._%+-]+@[A-Za-z0-9.-]+\\.[A-Za-z]{2,}' },
  card_number: { name: 'Card numbers', pattern: '\\b(?:\\d[ -]?){12,18}\\d\\b' },
  phone_number: { name: 'Phone numbers', pattern: '(?<![\\w+])\\+?\\d{1,3}?[ .-]?\\(?\\d{2,4}\\)?[ .-]?\\d{3,4}[ .-]?\\d{3,4}(?!\\w)' },
} as const;
export type PresetName = keyof typeof PRESETS;

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
  const pattern = input.pattern ?? preset?.pattern ?? current?.pattern;
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
    try {
      new RegExp(pattern, 'giu');
    } catch (error) {
      problems.push({ path: 'pattern', message: `not a valid regular expression: ${error instanceof Error ? error.message : String(error)}` });
    }
  }
  if (problems.length || !type || !name || !pattern) throw new ValidationError('invalid request body', problems);
  return { name, type, pattern, action, applies_to: appliesTo, enabled: input.enabled ?? current?.enabled ?? true };
}

const PRESET_PATTERNS = new Set<string>(Object.values(PRESETS).map((preset) => preset.pattern));

/** Refuses a new pattern that backtracks catastrophically (400), before anything is written. */
async function refuseSlowPattern(definition: Omit<Guardrail, 'id'>, current?: Guardrail): Promise<void> {
  if (definition.type === 'block_tool' || PRESET_PATTERNS.has(definition.pattern) || definition.pattern === current?.pattern) return;
  if (await backtracksCatastrophically(definition.pattern)) {
    throw new ValidationError('invalid request body', [
      {
        path: 'pattern',
        message:
          'takes too long on some texts (catastrophic backtracking): a repeated group can match the same text in more than one way, as in (a+)+ or (\\w+\\s?)*; rewrite it so each character can be matched one way only',
      },
    ]);
  }
}

export async function createGuardrail(deps: Deps, orgId: string, workspaceId: string, input: GuardrailInput): Promise<Guardrail> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  const definition = resolveGuardrail(input);
  await refuseSlowPattern(definition);
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
  await refuseSlowPattern(definition, current);
  const item: GuardrailItem = { ...current, ...definition, updated_at: deps.clock.now().toISOString() };
  try {
    await deps.table.put(item, { condition: 'attribute_exists(pk)' });
  } catch (error) {
    if (isConditionFailed(error)) throw new NotFoundError(`guardrail ${id} not found`);
    throw error;
  }
  return toGuardrail(item);
}

export async function deleteGuardrail(deps: Deps, orgId: string, workspaceId: string, id: string): Promise<void> {
  await getWorkspaceItem(deps, orgId, workspaceId);
  try {
    await deps.table.delete(guardrailKey(workspaceId, id), { condition: 'attribute_exists(pk)' });
  } catch (error) {
    if (isConditionFailed(error)) throw new NotFoundError(`guardrail ${id} not found`);
    throw error;
  }
  await addWorkspaceCounters(deps, workspaceId, { guardrail_count: -1 });
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

function regexOf(guardrail: Guardrail): RegExp {
  return new RegExp(guardrail.pattern, 'giu');
}

/** Every pattern guardrail of a direction replaced by `[redacted]`: what is safe to show or store. */
export function redactAll(guardrails: Guardrail[], text: string, direction: 'input' | 'output'): string {
  return guardrails.filter((guardrail) => applies(guardrail, direction)).reduce((result, guardrail) => result.replace(regexOf(guardrail), REDACTED), text);
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
    const match = regexOf(guardrail).exec(text);
    if (match) {
      hits.push({ guardrail, direction, action: 'block', excerpt: excerptAround(guardrails, text, match.index, match.index + match[0].length, direction) });
      return { text: redactAll(guardrails, text.replace(regexOf(guardrail), REDACTED), direction), blockedBy: guardrail, hits };
    }
  }
  let result = text;
  for (const guardrail of guardrails.filter((candidate) => applies(candidate, direction) && candidate.type === 'redact_pattern')) {
    const match = regexOf(guardrail).exec(result);
    if (!match) continue;
    hits.push({ guardrail, direction, action: 'redact', excerpt: excerptAround(guardrails, result, match.index, match.index + match[0].length, direction) });
    result = result.replace(regexOf(guardrail), REDACTED);
  }
  return { text: result, blockedBy: undefined, hits };
}

/** Whether a `block_tool` guardrail keeps a tool from the model. */
export function blockingGuardrail(guardrails: Guardrail[], toolName: string): Guardrail | undefined {
  return guardrails.find((guardrail) => {
    return guardrail.enabled && guardrail.type === 'block_tool' && globToRegExp(guardrail.pattern).test(toolName);
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
