import { createRequire } from 'node:module';
import { LRUCache } from 'lru-cache';

/*
 * dynalite parses every expression it is sent (condition, key condition, filter, update,
 * projection) with a PEG parser, on every call: most of its CPU, and the larger part of the
 * embedded store's cost on a query (the conversation's claim sends a 487-character update
 * expression). The service sends a few dozen distinct expressions over and over with new values,
 * so each parse is kept here as a template and the next call with the same expression, names and
 * value types gets a copy with its own values put in.
 *
 * A parse depends on the expression, the names it resolves, the types of the values (the parser
 * checks operand types) and, for `BETWEEN` and `attribute_type`, the values themselves: those two
 * are parsed every time. The parse also marks the names and values it used in a record the
 * request's expressions share, which dynalite then checks for unused ones; a template keeps every
 * name its expression uses and replays that. An expression that fails to parse is never kept,
 * so every error is dynalite's own, every time.
 */

const require = createRequire(import.meta.url);

interface ParseContext {
  attrNames?: Record<string, string>;
  attrVals?: Record<string, Record<string, unknown>>;
  unusedAttrNames?: Record<string, boolean>;
  unusedAttrVals?: Record<string, boolean>;
  isKeyCondition?: boolean;
}
interface Parser {
  parse(input: string, options: { context: ParseContext }): unknown;
}

/** A kept parse: its result with each value replaced by a marker naming it, and what it used. */
interface Template {
  tree: unknown;
  usedNames: string[];
  usedValues: string[];
}

/** Where a value of the call goes in a template. */
class ValueSlot {
  constructor(readonly name: string) {}
}

/** Expressions whose parse reads the values themselves, not only their types. */
const READS_VALUES = /between|attribute_type/i;
/**
 * Templates kept per parser, the least recently used dropped first. The service's own expressions
 * are a few dozen, but attribute names can come from tenants' data (a counter per category or
 * channel), and those must not push out the ones every query uses.
 */
const MAX_TEMPLATES = 1_000;

const TYPES = ['S', 'N', 'B', 'NULL', 'BOOL', 'SS', 'NS', 'BS', 'L', 'M'];

function typeOf(value: Record<string, unknown>): string {
  return TYPES.find((type) => value[type] != null) ?? '?';
}

/** What a parse depends on besides the values' contents. */
function keyOf(input: string, context: ParseContext): string {
  const values = Object.entries(context.attrVals ?? {}).map(([name, value]) => `${name}=${typeOf(value)}`);
  return `${context.isKeyCondition ? 'k' : ''}\0${input}\0${JSON.stringify(context.attrNames ?? {})}\0${values.join(',')}`;
}

/** A copy of `tree` with the call's values swapped for slots (`slots`) or slots for the call's values (`values`). */
function copy(tree: unknown, swap: (node: object) => unknown): unknown {
  if (tree === null || typeof tree !== 'object') return tree;
  const swapped = swap(tree);
  if (swapped !== undefined) return swapped;
  if (Array.isArray(tree)) return tree.map((item) => copy(item, swap));
  // Some of dynalite's maps have no prototype (`Object.create(null)`): the copy keeps that.
  const out = Object.create(Object.getPrototypeOf(tree)) as Record<string, unknown>;
  for (const [key, value] of Object.entries(tree)) out[key] = copy(value, swap);
  return out;
}

/** Every name of `map` marked unused: a parse removes the ones it uses. */
function allUnused(map: Record<string, unknown> | undefined): Record<string, boolean> {
  return Object.fromEntries(Object.keys(map ?? {}).map((name) => [name, true]));
}

/** `parser`'s parse with its templates kept (at most `max`); exported for its test. */
export function memoized(parser: Parser, max = MAX_TEMPLATES): Parser['parse'] {
  const parse = parser.parse.bind(parser);
  const templates = new LRUCache<string, Template>({ max });
  /** Marks what the expression used, as its parse does, in the request's shared bookkeeping. */
  const markUsed = (context: ParseContext, { usedNames, usedValues }: Template) => {
    for (const name of usedNames) delete context.unusedAttrNames?.[name];
    for (const name of usedValues) delete context.unusedAttrVals?.[name];
  };
  return (input, options) => {
    const { context } = options;
    if (READS_VALUES.test(input)) return parse(input, options);
    const key = keyOf(input, context);
    const kept = templates.get(key);
    if (kept) {
      markUsed(context, kept);
      const values = context.attrVals ?? {};
      return copy(kept.tree, (node) => (node instanceof ValueSlot ? values[node.name] : undefined));
    }
    // The request's expressions share one record of unused names (an update expression may have
    // used a name its condition uses too): this parse gets a record of its own, all unused, so
    // the template knows every name the expression uses, whatever came before it.
    const probe = { ...context, unusedAttrNames: allUnused(context.attrNames), unusedAttrVals: allUnused(context.attrVals) };
    const result = parse(input, { ...options, context: probe });
    const template: Template = {
      tree: undefined,
      usedNames: Object.keys(context.attrNames ?? {}).filter((name) => !(name in probe.unusedAttrNames)),
      usedValues: Object.keys(context.attrVals ?? {}).filter((name) => !(name in probe.unusedAttrVals)),
    };
    markUsed(context, template);
    // A string is dynalite's message for an expression it refuses: never kept.
    if (typeof result !== 'object' || result === null) return result;
    const slotOf = new Map(Object.entries(context.attrVals ?? {}).map(([name, value]) => [value as object, new ValueSlot(name)]));
    templates.set(key, { ...template, tree: copy(result, (node) => slotOf.get(node)) });
    return result;
  };
}

let installed = false;

/**
 * Puts the memo in front of dynalite's three expression parsers, once per process: its validations
 * look `parse` up on the parser's module at every call, so both the embedded store and dynalite's
 * HTTP server (tests) use it.
 */
export function memoizeDynaliteParsers(): void {
  if (installed) return;
  installed = true;
  for (const name of ['conditionParser', 'updateParser', 'projectionParser']) {
    const parser = require(`dynalite/db/${name}.js`) as Parser;
    parser.parse = memoized(parser);
  }
}
