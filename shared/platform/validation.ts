import { z, type ZodError } from 'zod';
import type { ErrorDetail } from './errors.js';

type Issue = Parameters<NonNullable<z.core.$ZodConfig['customError']>>[0];

/** "must be at least 3 characters", "must be greater than 0": a bound said in words, for texts, lists and numbers. */
function boundMessage(kind: 'least' | 'most', origin: string, bound: number, inclusive: boolean): string {
  const sized = origin === 'string' || origin === 'array' || origin === 'set';
  if (sized && kind === 'least' && bound <= 1) return 'must not be empty';
  const plural = bound === 1 ? '' : 's';
  if (origin === 'string') return `must be at ${kind} ${bound} character${plural}`;
  if (sized) return `must have at ${kind} ${bound} item${plural}`;
  if (!inclusive) return `must be ${kind === 'least' ? 'greater' : 'less'} than ${bound}`;
  return `must be at ${kind} ${bound}`;
}

/**
 * The messages of the API's validation where a schema sets none of its own, in the words its own
 * messages use ("must not be empty", "is required") rather than zod's ("Too small: expected string
 * to have >=1 characters"): the console shows them under the field they are about.
 */
function humanMessage(issue: Issue): string | undefined {
  if (issue.code === 'too_small' || issue.code === 'too_big') {
    const bound = Number(issue.code === 'too_small' ? issue.minimum : issue.maximum);
    return boundMessage(issue.code === 'too_small' ? 'least' : 'most', issue.origin, bound, issue.inclusive !== false);
  }
  if (issue.code === 'invalid_type')
    return issue.input === undefined
      ? 'is required'
      : `must be ${issue.expected === 'array' ? 'a list' : `${/^[aeiou]/.test(issue.expected) ? 'an' : 'a'} ${issue.expected}`}`;
  if (issue.code === 'invalid_value' && issue.values.length > 1) return `must be one of ${issue.values.map(String).join(', ')}`;
  return undefined;
}

// Set once for the process: every schema of the API is parsed after this module loads (the router imports it).
z.config({ customError: humanMessage });

/**
 * The one way a zod failure is told: one `{ path, message }` per issue (a 400's `details`), the
 * path dotted and, when the value sat inside a larger one, prefixed with where (`credentials`).
 */
export function issueDetails(error: ZodError, prefix: string[] = []): ErrorDetail[] {
  return error.issues.map((issue) => ({ path: [...prefix, ...issue.path.map(String)].join('.'), message: issue.message }));
}

/** The same issues as one line each (`path: message`), for errors that are logged or stored rather than answered. */
export function issueLines(error: ZodError): string[] {
  return issueDetails(error).map((detail) => `${detail.path}: ${detail.message}`);
}
