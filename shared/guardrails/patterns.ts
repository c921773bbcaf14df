import { LRUCache } from 'lru-cache';
import type { RE2JS } from 're2js';
import { errorMessage } from '../platform/errors.js';

/*
 * The pattern engine of guardrails: RE2 syntax, compiled once and cached, with the limits that keep
 * one tenant's patterns from holding the shared process.
 */

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

export const REDACTED = '[redacted]';

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
 * The engine, loaded on first need (`loadPatternEngine`): 150 KB that only workspaces with pattern
 * guardrails use, so a Lambda cold start does not load it. The paths that compile a pattern (the
 * query's context when its workspace has pattern guardrails, a guardrail's create and update) load
 * it first; compiling before is a programming error, not a request's.
 */
let engine: typeof import('re2js') | undefined;

/** Loads the pattern engine once; later calls answer at once. */
export async function loadPatternEngine(): Promise<void> {
  engine ??= await import('re2js');
}

function re2(): typeof import('re2js') {
  if (!engine) throw new Error('the pattern engine is not loaded: await loadPatternEngine() before compiling a pattern');
  return engine;
}

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
export type Compiled = { regex: RE2JS } | { problem: string };

/** Compiles a pattern once (then answers from the cache), or says why it cannot be used. */
export function compilePattern(pattern: string): Compiled {
  const cached = compiledPatterns.get(pattern);
  if (cached) return { regex: cached };
  const tooLarge = (size: string) =>
    `too large once its repetitions are written out (${size} steps, at most ${MAX_PROGRAM_SIZE}): use smaller counts in {n,m}`;
  // Refused before compiling: a pattern like that takes up to a second to compile.
  const repeated = countedRepetitions(pattern);
  if (repeated > MAX_PROGRAM_SIZE) return { problem: tooLarge(`at least ${repeated}`) };
  const { RE2JS: Engine } = re2();
  let regex: RE2JS;
  try {
    // Case-insensitive, as the `i` flag was. RE2JS reads a JavaScript string by code point, as the
    // `u` flag did, and each use below looks at every match, as the `g` flag did.
    regex = Engine.compile(pattern, Engine.CASE_INSENSITIVE);
  } catch (error) {
    return { problem: `not a valid regular expression: ${describeCompileError(error, pattern)}` };
  }
  if (regex.programSize() > MAX_PROGRAM_SIZE) return { problem: tooLarge(String(regex.programSize())) };
  compiledPatterns.set(pattern, regex);
  return { regex };
}

/**
 * A JSON Schema `pattern` from a tool server's output schema, as ajv's regular expression engine
 * (its `code.regExp` option: `shared/connections/output-schemas.ts`). A tool server is no more
 * trusted than a tenant, and ajv's default, `RegExp`, backtracks: `^(a+)+$` against forty `a`s and a
 * `!` in a tool's structured result would hold the process. RE2 runs in linear time, with the same
 * size limit as guardrails; the pattern is read as JavaScript reads it (`ecmaToRe2`), and one RE2
 * cannot run (lookaround, or too large) throws, and the schema it is in is not checked. `toString`
 * names the pattern: ajv keys compiled patterns by it.
 */
export function schemaPattern(source: string, flags: string): { test(text: string): boolean; toString(): string } {
  if (countedRepetitions(source) > MAX_PROGRAM_SIZE) throw new Error(`pattern too large: ${source.slice(0, 80)}`);
  // RE2JS reads a JavaScript string by code point, as ajv's `u` flag asks.
  const regex = re2().RE2JS.compile(ecmaToRe2(source));
  if (regex.programSize() > MAX_PROGRAM_SIZE) throw new Error(`pattern too large: ${source.slice(0, 80)}`);
  return { test: (text) => regex.matcher(text).find(), toString: () => `/${source}/${flags}` };
}
schemaPattern.code = 'schemaPattern';

/** What JavaScript's `\s` matches (white space and line terminators); RE2's `\s` is ASCII only. */
const ECMA_SPACE = '\\t\\n\\x{0B}\\f\\r \\x{A0}\\x{1680}\\x{2000}-\\x{200A}\\x{2028}\\x{2029}\\x{202F}\\x{205F}\\x{3000}\\x{FEFF}';

/**
 * A JavaScript pattern written for RE2 where the two read the same text differently: `\s` and
 * `\S` as JavaScript means them (Unicode spaces too), `\uXXXX` and `\u{…}` as `\x{…}`. What
 * cannot be written so, `\S` in a class and JavaScript's `[]` and `[^]`, throws.
 */
function ecmaToRe2(source: string): string {
  let out = '';
  let inClass = false;
  for (let i = 0; i < source.length; i++) {
    const char = source[i];
    if (char === '\\') {
      const next = source[i + 1] ?? '';
      const unicode = next === 'u' ? /^(?:\{([0-9A-Fa-f]{1,6})\}|([0-9A-Fa-f]{4}))/.exec(source.slice(i + 2)) : null;
      if (next === 's') out += inClass ? ECMA_SPACE : `[${ECMA_SPACE}]`;
      else if (next === 'S' && !inClass) out += `[^${ECMA_SPACE}]`;
      else if (next === 'S') throw new Error('\\S in a character class has no RE2 form');
      else if (unicode) out += `\\x{${unicode[1] ?? unicode[2]}}`;
      else out += char + next;
      i += 1 + (unicode ? unicode[0].length : 0);
    } else if (inClass) {
      if (char === ']') inClass = false;
      out += char;
    } else {
      if (char === '[' && /^\^?\]/.test(source.slice(i + 1))) throw new Error('[] and [^] have no RE2 form');
      if (char === '[') inClass = true;
      out += char;
    }
  }
  return out;
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
  if (!(error instanceof re2().RE2JSSyntaxException)) return errorMessage(error);
  // RE2JS reads the case-insensitive flag as a `(?i)` written before the pattern.
  const at = error.input === null ? '' : error.input === `(?i)${pattern}` ? pattern : error.input;
  const unsupported = UNSUPPORTED.find((candidate) => candidate.matches(error.error, at, pattern));
  if (unsupported) return `${unsupported.says} (patterns are RE2 syntax)`;
  return at ? `${error.error}: \`${at}\`` : error.error;
}

/** Where the first match of a pattern in a text starts and ends (UTF-16 offsets), if any. */
export function firstMatch(regex: RE2JS, text: string): { start: number; end: number } | undefined {
  const matcher = regex.matcher(text);
  return matcher.find() ? { start: matcher.start(), end: matcher.end() } : undefined;
}

/**
 * A text with every match of a pattern replaced by `[redacted]`, as `String.replace` with a `g`
 * pattern did (empty matches too). Built from the offsets of each match rather than with
 * `Matcher.replaceAll`, which extracts every capture group of every match for its replacer: time
 * that grows with the number of groups a pattern has.
 */
export function redactMatches(regex: RE2JS, text: string): string {
  const matcher = regex.matcher(text);
  let result = '';
  let copied = 0;
  while (matcher.find()) {
    result += text.slice(copied, matcher.start()) + REDACTED;
    copied = matcher.end();
  }
  return result + text.slice(copied);
}

/** The steps (compiled instructions) a pattern takes to match, or 0 for one that does not compile. */
export function patternSteps(pattern: string): number {
  const compiled = compilePattern(pattern);
  return 'problem' in compiled ? 0 : compiled.regex.programSize();
}
