import type { RE2JS } from 're2js';
import type { Deps } from '../deps.js';
import { globMatcher } from '../platform/globs.js';
import { newId } from '../platform/ids.js';
import { violationKey } from './entities.js';
import { stepsOf, type Guardrail } from './guardrails.js';
import { REDACTED, compilePattern, firstMatch, redactMatches } from './patterns.js';

/*
 * Guardrails at work on a query: screening its texts on the way in and out, keeping tools from the
 * model, and the violation items of what they caught. Definitions and their store live in
 * guardrails.ts; the pattern engine (RE2) and its limits in patterns.ts.
 */

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
 * The compiled pattern of a guardrail. A stored pattern RE2 refuses fails the query rather than
 * being skipped: a guardrail that silently stopped blocking or redacting would let through what
 * its admin meant to keep out.
 */
function regexOf(guardrail: Guardrail): RE2JS {
  const compiled = compilePattern(guardrail.pattern);
  if ('problem' in compiled)
    throw new Error(`guardrail ${guardrail.id} ("${guardrail.name}") cannot be applied, its pattern is ${compiled.problem}`);
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
    const compiled = compilePattern(guardrail.pattern);
    if ('problem' in compiled) {
      return `guardrail "${guardrail.name}" cannot be applied (its pattern is ${compiled.problem}); an admin must change or disable it`;
    }
  }
  return undefined;
}

/** Every pattern guardrail of a direction replaced by `[redacted]`: what is safe to show or store. */
export function redactAll(guardrails: Guardrail[], text: string, direction: 'input' | 'output'): string {
  return guardrails
    .filter((guardrail) => applies(guardrail, direction))
    .reduce((result, guardrail) => redactMatches(regexOf(guardrail), result), text);
}

/** Up to 40 characters either side of a match, with the match and anything else sensitive redacted. */
function excerptAround(guardrails: Guardrail[], text: string, start: number, end: number, direction: 'input' | 'output'): string {
  const before = text.slice(Math.max(0, start - 40), start);
  const after = text.slice(end, end + 40);
  const excerpt = `${start > 40 ? '…' : ''}${before}${REDACTED}${after}${end + 40 < text.length ? '…' : ''}`;
  return redactAll(guardrails, excerpt, direction);
}

/** True when the workspace screens answers (a pattern guardrail on output): then answers are not streamed as they come. */
export function screensAnswers(guardrails: Guardrail[]): boolean {
  return guardrails.some((guardrail) => applies(guardrail, 'output'));
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
    const matches = globMatcher(guardrail.pattern);
    return names.some((name) => matches(name));
  });
}

/** Violation items of a query's hits (entities.ts), written with the query's other items. */
export function violationItems(deps: Deps, orgId: string, workspaceId: string, conversationId: string, hits: GuardrailHit[]) {
  const now = deps.clock.now();
  const at = now.toISOString();
  return hits.map((hit) => {
    const id = newId('viol', now);
    return {
      ...violationKey(orgId, workspaceId, at, id),
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
