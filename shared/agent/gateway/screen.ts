import { screenAnswer } from '../query/screening.js';
import { applyGuardrails, SCREENING_BUDGET, screeningCost, unusableGuardrail, type Guardrail } from '../../guardrails/index.js';

/*
 * The workspace's guardrails on a person's tool call, as on a question and its answer: the
 * arguments are the input (each text in them screened: a blocking match refuses the call, a
 * redacting one is replaced before the call leaves), the tool's answer the output (withheld or
 * redacted before the person's client gets it).
 */

/** Why the call does not go ahead, or the arguments to call with. */
export type ScreenedArguments = { refusal: string } | { input: Record<string, unknown> };

/** Every text of a JSON value, in order. */
function textsOf(value: unknown, into: string[] = []): string[] {
  if (typeof value === 'string') into.push(value);
  else if (Array.isArray(value)) for (const item of value) textsOf(item, into);
  else if (value && typeof value === 'object') for (const item of Object.values(value)) textsOf(item, into);
  return into;
}

/** The value with each text replaced as `replace` says. */
function mapTexts(value: unknown, replace: (text: string) => string): unknown {
  if (typeof value === 'string') return replace(value);
  if (Array.isArray(value)) return value.map((item) => mapTexts(item, replace));
  if (value && typeof value === 'object')
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, mapTexts(item, replace)]));
  return value;
}

/** The input guardrails on a call's arguments: refused when one blocks (or cannot run, or would take too long), else redacted. */
export function screenArguments(guardrails: Guardrail[], input: Record<string, unknown>): ScreenedArguments {
  const unusable = unusableGuardrail(guardrails);
  if (unusable) return { refusal: `This call was not made: ${unusable}.` };
  if (screeningCost(guardrails, textsOf(input), 'input') > SCREENING_BUDGET) {
    return { refusal: "This call was not made: its arguments are too long to screen with this workspace's guardrails." };
  }
  let blockedBy: Guardrail | undefined;
  const screened = mapTexts(input, (text) => {
    const result = applyGuardrails(guardrails, text, 'input');
    blockedBy ??= result.blockedBy;
    return result.text;
  }) as Record<string, unknown>;
  if (blockedBy) return { refusal: `This call was not made: its arguments match the workspace's guardrail "${blockedBy.name}".` };
  return { input: screened };
}

/** The output guardrails on a tool's answer (the agent's answer's screening): withheld when one blocks, else redacted. */
export function screenResult(guardrails: Guardrail[], text: string): { text: string; withheldBy: Guardrail | undefined } {
  const { answer, withheldBy } = screenAnswer(guardrails, text, "tool's answer");
  return { text: answer, withheldBy };
}
