import { beforeAll, describe, expect, it, vi } from 'vitest';
import { applyGuardrails, redactAll } from '../../shared/guardrails/enforcement.js';
import { resolveGuardrail, type Guardrail, type GuardrailInput, type GuardrailType } from '../../shared/guardrails/guardrails.js';
import { MAX_PROGRAM_SIZE, PRESETS, REDACTED, loadPatternEngine, schemaPattern } from '../../shared/guardrails/patterns.js';
import { ValidationError } from '../../shared/platform/errors.js';

describe('the pattern engine, loaded on first need', () => {
  it('refuses to compile before it is loaded, saying so, and compiles once loaded', async () => {
    vi.resetModules();
    const fresh = await import('../../shared/guardrails/patterns.js');
    expect(() => fresh.compilePattern('a+b')).toThrow(/pattern engine is not loaded/);
    await fresh.loadPatternEngine();
    const compiled = fresh.compilePattern('a+b');
    expect('regex' in compiled && fresh.firstMatch(compiled.regex, 'xxAAB')).toEqual({ start: 2, end: 5 });
  });
});

beforeAll(loadPatternEngine);

/** The phone preset as it was written for JavaScript's RegExp (lookbehind and lookahead). */
const OLD_PHONE_PATTERN = '(?<![\\w+])\\+?\\d{1,3}?[ .-]?\\(?\\d{2,4}\\)?[ .-]?\\d{3,4}[ .-]?\\d{3,4}(?!\\w)';

let ids = 0;
function guardrail(pattern: string, type: GuardrailType = 'redact_pattern', fields: Partial<Guardrail> = {}): Guardrail {
  ids += 1;
  return {
    id: `gr_${ids}`,
    name: `Guardrail ${ids}`,
    type,
    pattern,
    action: type === 'block_pattern' ? 'block' : 'redact',
    applies_to: 'both',
    enabled: true,
    ...fields,
  };
}

/** The 400 details resolveGuardrail gives for a body, or undefined when it accepts it. */
function problemsOf(input: GuardrailInput): { path: string; message: string }[] | undefined {
  try {
    resolveGuardrail(input);
    return undefined;
  } catch (error) {
    if (error instanceof ValidationError) return error.details;
    throw error;
  }
}

const patternProblem = (pattern: string) =>
  problemsOf({ name: 'Pattern', type: 'block_pattern', pattern })?.find((detail) => detail.path === 'pattern')?.message;

describe('guardrail patterns on RE2', () => {
  it('accepts the presets and ordinary patterns, Unicode ones among them', () => {
    for (const { pattern } of Object.values(PRESETS)) expect(patternProblem(pattern), pattern).toBeUndefined();
    for (const pattern of [
      'secret',
      'TICKET-\\d+',
      'sk-[A-Za-z0-9]{20,}',
      '\\p{L}+ project',
      '(?<code>[A-Z]{3})-\\d+',
      '(?P<word>\\w+)',
      '\\x{1F600}',
      'x(a+)+y',
      '(a+)+$',
      'a'.repeat(500),
    ]) {
      expect(patternProblem(pattern), pattern).toBeUndefined();
    }
  });

  it.each([
    ['(?=a)b', /^not a valid regular expression: lookahead .*lookaround and backreferences are not supported/],
    ['a(?!b)', /^not a valid regular expression: lookahead /],
    ['(?<=a)b', /^not a valid regular expression: lookbehind .*lookaround and backreferences are not supported/],
    ['(?<!a)b', /^not a valid regular expression: lookbehind /],
    ['(a)\\1', /^not a valid regular expression: backreference .*lookaround and backreferences are not supported/],
    ['(?<x>a)\\k<x>', /^not a valid regular expression: backreference /],
    ['(?P<x>a)(?P=x)', /^not a valid regular expression: backreference /],
    ['(?>a+)b', /^not a valid regular expression: atomic group /],
    ['a++', /^not a valid regular expression: possessive quantifier /],
    ['\\d{2}+', /^not a valid regular expression: possessive quantifier /],
    ['caf\\u00e9', /^not a valid regular expression: \\u escape: not supported, write \\x\{00e9\}/],
    ['a(', /^not a valid regular expression: missing closing \): `a\(`$/],
    ['[z-a]', /^not a valid regular expression: invalid character class range: `z-a`$/],
    ['a**', /^not a valid regular expression: invalid nested repetition operator: `\*\*`$/],
  ])('refuses %s, naming what is wrong', (pattern, message) => {
    expect(problemsOf({ name: 'Pattern', type: 'redact_pattern', pattern })).toEqual([
      { path: 'pattern', message: expect.stringMatching(message) },
    ]);
  });

  it('refuses a pattern whose repetitions compile too large, before spending a second compiling it', () => {
    // 496 characters that compile to 110 003 instructions: over a minute on a 5 000-character text.
    const started = performance.now();
    expect(patternProblem(`${'.{0,1000}'.repeat(55)}z`)).toMatch(
      /^too large once its repetitions are written out \(at least 55000 steps, at most 1000\)/,
    );
    // Refused from the pattern's text (microseconds); compiling it would take over a second.
    expect(performance.now() - started).toBeLessThan(400);
    // Nested counts are only found by compiling: 40 × 20 optional characters, 1 603 instructions.
    expect(patternProblem('(?:.{0,20}){40}z')).toBe(
      `too large once its repetitions are written out (1603 steps, at most ${MAX_PROGRAM_SIZE}): use smaller counts in {n,m}`,
    );
    // Braces that are not repetitions do not count.
    expect(patternProblem('\\x{2000}\\p{L}\\{5000\\}[{5000}]\\Q{5000}\\E.{0,400}')).toBeUndefined();
  });

  it('answers a crafted text at once with patterns that backtrack catastrophically in JavaScript', () => {
    const rails = [guardrail('x(a+)+y', 'block_pattern'), guardrail('(a+)+$', 'block_pattern'), guardrail('(\\w+\\s?)*z', 'block_pattern')];
    for (const text of [`x${'a'.repeat(27)}!`, `x${'a'.repeat(32_000)}!`, `${'word '.repeat(6_000)}!`]) {
      const started = performance.now();
      expect(applyGuardrails(rails, text, 'input').blockedBy).toBeUndefined();
      expect(performance.now() - started).toBeLessThan(1_000);
    }
    expect(applyGuardrails(rails, 'xaaay', 'input').blockedBy).toBe(rails[0]);
  });
});

describe('applyGuardrails and redactAll', () => {
  it('blocks on the first blocking match, with 40 characters either side in the excerpt, everything sensitive redacted', () => {
    const email = guardrail(PRESETS.email.pattern);
    const secret = guardrail('secret project \\w+', 'block_pattern');
    const text = `${'b'.repeat(50)} mail ada@example.com about SECRET PROJECT Falcon and secret project Eagle ${'e'.repeat(50)}`;
    const result = applyGuardrails([email, secret], text, 'input');
    expect(result.blockedBy).toBe(secret);
    expect(result.text).toBe(`${'b'.repeat(50)} mail ${REDACTED} about ${REDACTED} and ${REDACTED} ${'e'.repeat(50)}`);
    expect(result.hits).toEqual([{ guardrail: secret, direction: 'input', action: 'block', excerpt: expect.any(String) }]);
    const excerpt = result.hits[0]?.excerpt ?? '';
    const start = text.indexOf('SECRET');
    const end = start + 'SECRET PROJECT Falcon'.length;
    const expected = `…${text.slice(start - 40, start)}${REDACTED}${text.slice(end, end + 40)}…`
      .replace('ada@example.com', REDACTED)
      .replace('secret project Eagle', REDACTED);
    expect(excerpt).toBe(expected);
  });

  it('redacts every match of every redacting guardrail, case-insensitively, and records one hit each (excerpts redacted by all)', () => {
    const email = guardrail(PRESETS.email.pattern);
    const code = guardrail('code-\\d+');
    const result = applyGuardrails([email, code], 'Ada@Example.COM and bob@example.org, CODE-12 and code-7', 'output');
    expect(result).toEqual({
      text: `${REDACTED} and ${REDACTED}, ${REDACTED} and ${REDACTED}`,
      blockedBy: undefined,
      hits: [
        { guardrail: email, direction: 'output', action: 'redact', excerpt: `${REDACTED} and ${REDACTED}, ${REDACTED} and ${REDACTED}` },
        { guardrail: code, direction: 'output', action: 'redact', excerpt: `${REDACTED} and ${REDACTED}, ${REDACTED} and ${REDACTED}` },
      ],
    });
  });

  it('keeps to the direction, skips disabled guardrails and block_tool ones', () => {
    const rails = [
      guardrail('alpha', 'redact_pattern', { applies_to: 'input' }),
      guardrail('beta', 'redact_pattern', { enabled: false }),
      guardrail('gamma*', 'block_tool', { applies_to: 'tools' }),
    ];
    expect(redactAll(rails, 'alpha beta gamma', 'input')).toBe(`${REDACTED} beta gamma`);
    expect(redactAll(rails, 'alpha beta gamma', 'output')).toBe('alpha beta gamma');
  });

  it('counts offsets in UTF-16 code units around characters outside the BMP, as String.replace did', () => {
    const rails = [guardrail('é+|😀')];
    const text = '😀 café 😀 CAFÉÉ';
    expect(redactAll(rails, text, 'input')).toBe(text.replace(/é+|😀/giu, REDACTED));
    expect(applyGuardrails([guardrail('caf', 'block_pattern')], `${'🙂'.repeat(30)}café`, 'input').hits[0]?.excerpt).toBe(
      `…${'🙂'.repeat(20)}${REDACTED}é`,
    );
  });

  it('replaces empty matches as String.replace with a g pattern did', () => {
    for (const [pattern, text] of [
      ['x*', 'abc'],
      ['b*', 'abb'],
      ['a|', 'banana'],
      ['\\b', 'one two'],
    ] as const) {
      expect(redactAll([guardrail(pattern)], text, 'input'), pattern).toBe(text.replace(new RegExp(pattern, 'giu'), REDACTED));
    }
  });

  it('keeps no state between uses of a cached pattern (no lastIndex left over from the last text)', () => {
    const rail = guardrail('needle', 'block_pattern');
    const long = `${'hay '.repeat(20)}needle`;
    for (let round = 0; round < 3; round++) {
      expect(applyGuardrails([rail], long, 'input').blockedBy).toBe(rail);
      expect(applyGuardrails([rail], 'needle', 'input').blockedBy).toBe(rail);
      expect(applyGuardrails([rail], 'no match here', 'input').blockedBy).toBeUndefined();
    }
  });

  it('fails rather than skips a stored pattern RE2 refuses, so a guardrail never silently stops applying', () => {
    expect(() => applyGuardrails([guardrail('(?<=a)b', 'block_pattern')], 'ab', 'input')).toThrow(
      /cannot be applied, its pattern is not a valid regular expression: lookbehind/,
    );
  });
});

describe('the phone_number preset', () => {
  it.each([
    ['call me on +44 20 7946 0958 tomorrow', `call me on ${REDACTED} tomorrow`],
    ['+1 (555) 123-4567', REDACTED],
    ['555-123-4567 or 555.987.6543', `${REDACTED} or ${REDACTED}`],
    ['call 07700 900123 now', `call ${REDACTED} now`],
    ['tel:+442079460958', `tel:${REDACTED}`],
    ['😀+44 20 7946 0958😀', `😀${REDACTED}😀`],
    // Never part of a longer word or number.
    ['ref ABC5551234567', 'ref ABC5551234567'],
    ['id_5551234567', 'id_5551234567'],
    ['5551234567x', '5551234567x'],
    ['number 0207946095812345', 'number 0207946095812345'],
    ['on 2024-01-15 at 10:30', 'on 2024-01-15 at 10:30'],
  ])('%j → %j, as the JavaScript pattern did', (text, redacted) => {
    expect(redactAll([guardrail(PRESETS.phone_number.pattern)], text, 'output')).toBe(redacted);
    expect(text.replace(new RegExp(OLD_PHONE_PATTERN, 'giu'), REDACTED)).toBe(redacted);
  });
});

describe("tool output schemas' patterns (schemaPattern: RE2, read as JavaScript reads them)", () => {
  const matches = (pattern: string, text: string) => schemaPattern(pattern, 'u').test(text);

  it('answers at once where RegExp backtracks for ever', () => {
    // First a text RegExp does finish, in seconds (2^27 ways): with backtracking this fails here
    // instead of hanging on the next one.
    const short = performance.now();
    expect(matches('^(a+)+$', `${'a'.repeat(27)}!`)).toBe(false);
    expect(performance.now() - short).toBeLessThan(1_000);
    const started = performance.now();
    expect(matches('^(a+)+$', `${'a'.repeat(40)}!`)).toBe(false);
    expect(matches('^(a+)+$', 'a'.repeat(40))).toBe(true);
    // RegExp never returns on the first text (2^40 ways to split the a's): any bound tells them apart.
    expect(performance.now() - started).toBeLessThan(2_000);
  });

  it('gives \\s and \\S their JavaScript meaning, Unicode spaces included, in and out of a class', () => {
    for (const space of [' ', '\t', '\v', '\u00a0', '\u2003', '\u3000', '\ufeff']) {
      expect(matches('^a\\sb$', `a${space}b`)).toBe(true);
      expect(matches('^[\\w\\s]+$', `a${space}b`)).toBe(true);
      expect(matches('^\\S+$', `a${space}b`)).toBe(false);
    }
    expect(matches('^\\S+$', 'ab')).toBe(true);
    expect(matches('^\\s$', 'x')).toBe(false);
  });

  it('reads \\uXXXX and \\u{…} escapes, and keeps other escapes as they are', () => {
    expect(matches('^\\u00e9$', 'é')).toBe(true);
    expect(matches('^\\u{1F600}$', '😀')).toBe(true);
    expect(matches('^[\\u0000-\\u007F]*$', 'plain ascii')).toBe(true);
    expect(matches('^[\\u0000-\\u007F]*$', 'café')).toBe(false);
    expect(matches('^\\d{3}\\.\\w+$', '123.abc')).toBe(true);
    expect(matches('^\\\\s$', '\\s')).toBe(true);
  });

  it('refuses what RE2 cannot read as JavaScript does, so that schema goes unchecked', () => {
    for (const pattern of ['[\\S]', '[^]', 'a[]', '(?=x)x', '(a)\\1']) expect(() => schemaPattern(pattern, 'u')).toThrow();
    expect(() => schemaPattern('x{1000}'.repeat(3), 'u')).toThrow(/too large/);
  });

  it('names each pattern apart (ajv keys compiled patterns by their text)', () => {
    expect(String(schemaPattern('^a$', 'u'))).not.toBe(String(schemaPattern('^b$', 'u')));
  });
});
