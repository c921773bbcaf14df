import { z } from '@hono/zod-openapi';
import type { Deps } from '../deps.js';
import { displayName } from '../http/schemas.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { newId } from '../platform/ids.js';
import { type Key, onConditionFailed } from '../platform/table.js';
import { addWorkspaceCounters, patternStepsUpdate, getWorkspaceItem } from '../workspaces/index.js';
import { guardrailExists, guardrailKey } from './entities.js';
import { PRESETS, WORKSPACE_PATTERN_STEPS, compilePattern, loadPatternEngine, patternSteps } from './patterns.js';

const GUARDRAIL_TYPES = ['block_pattern', 'redact_pattern', 'block_tool'] as const;
export type GuardrailType = (typeof GUARDRAIL_TYPES)[number];
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
  const appliesTo =
    type === 'block_tool' ? 'tools' : (input.applies_to ?? (current && current.type === type ? current.applies_to : undefined) ?? 'both');
  if (type === 'block_tool' && input.applies_to && input.applies_to !== 'tools')
    problems.push({ path: 'applies_to', message: 'a block_tool guardrail applies to tools' });
  if (type !== 'block_tool' && appliesTo === 'tools')
    problems.push({ path: 'applies_to', message: 'a pattern guardrail applies to input, output or both' });
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
  return patternSteps(guardrail.pattern);
}

/**
 * Moves the workspace's pattern steps by `delta` (the `pattern_steps` attribute), refusing with 400
 * a change that would take them past `WORKSPACE_PATTERN_STEPS`.
 */
async function reserveSteps(deps: Deps, orgId: string, workspaceId: string, delta: number): Promise<void> {
  if (delta === 0) return;
  const { key, input } = patternStepsUpdate(orgId, workspaceId, delta, WORKSPACE_PATTERN_STEPS);
  await onConditionFailed(
    deps.table.update(key, input),
    () =>
      new ValidationError('invalid request body', [
        {
          path: 'pattern',
          message: `the workspace's enabled patterns would take more than ${WORKSPACE_PATTERN_STEPS} steps together (this one takes ${delta}): disable or simplify another pattern first`,
        },
      ]),
  );
}

/**
 * The caller's workspace (404 otherwise) and the pattern engine, before a guardrail is written or
 * deleted: its steps are its compiled size, given back on delete.
 */
async function workspaceAndEngine(deps: Deps, orgId: string, workspaceId: string): Promise<void> {
  await Promise.all([getWorkspaceItem(deps, orgId, workspaceId), loadPatternEngine()]);
}

export async function createGuardrail(deps: Deps, orgId: string, workspaceId: string, input: GuardrailInput): Promise<Guardrail> {
  await workspaceAndEngine(deps, orgId, workspaceId);
  const definition = resolveGuardrail(input);
  await reserveSteps(deps, orgId, workspaceId, stepsOf(definition));
  const now = deps.clock.now();
  const id = newId('gr', now);
  const item: GuardrailItem = {
    ...guardrailKey(orgId, workspaceId, id),
    id,
    ...definition,
    created_at: now.toISOString(),
    updated_at: now.toISOString(),
  };
  await deps.table.put(item);
  await addWorkspaceCounters(deps, orgId, workspaceId, { guardrail_count: 1 });
  return toGuardrail(item);
}

export async function updateGuardrail(
  deps: Deps,
  orgId: string,
  workspaceId: string,
  id: string,
  input: GuardrailInput,
): Promise<Guardrail> {
  await workspaceAndEngine(deps, orgId, workspaceId);
  const current = await deps.table.get<GuardrailItem>(guardrailKey(orgId, workspaceId, id), true);
  if (!current) throw new NotFoundError(`guardrail ${id} not found`);
  const definition = resolveGuardrail(input, current);
  const delta = stepsOf(definition) - stepsOf(current);
  await reserveSteps(deps, orgId, workspaceId, delta);
  const item: GuardrailItem = { ...current, ...definition, updated_at: deps.clock.now().toISOString() };
  try {
    await onConditionFailed(deps.table.put(item, guardrailExists()), () => new NotFoundError(`guardrail ${id} not found`));
  } catch (error) {
    // Whatever the failure, the steps reserved for this change are given back.
    await reserveSteps(deps, orgId, workspaceId, -delta);
    throw error;
  }
  return toGuardrail(item);
}

export async function deleteGuardrail(deps: Deps, orgId: string, workspaceId: string, id: string): Promise<void> {
  await workspaceAndEngine(deps, orgId, workspaceId);
  const current = await deps.table.get<GuardrailItem>(guardrailKey(orgId, workspaceId, id), true);
  await onConditionFailed(
    deps.table.delete(guardrailKey(orgId, workspaceId, id), guardrailExists()),
    () => new NotFoundError(`guardrail ${id} not found`),
  );
  await addWorkspaceCounters(deps, orgId, workspaceId, { guardrail_count: -1 });
  if (current) await reserveSteps(deps, orgId, workspaceId, -stepsOf(current));
}
