import { scimRefusal } from './errors.js';

/*
 * The filter and PATCH path forms identity providers send (RFC 7644 §3.4.2.2, §3.5.2): equality on
 * one attribute (`userName eq "ana@example.com"`), and a value filter on a multi-valued attribute
 * (`members[value eq "usr_1"]`, `emails[type eq "work"].value`). Attribute names compare without
 * case, as the RFC says. Anything else is a 400 `invalidFilter` / `invalidPath`, never a guess.
 */

export interface Equality {
  /** The attribute, lower-cased (`username`, `externalid`, `emails.value`). */
  attribute: string;
  value: string;
}

const QUOTED = String.raw`"((?:[^"\\]|\\.)*)"`;
const EQUALITY = new RegExp(String.raw`^\s*([A-Za-z][\w.:$-]*)\s+eq\s+(?:${QUOTED}|(true|false))\s*$`, 'i');

const unquote = (quoted: string) => quoted.replace(/\\(.)/g, '$1');

/** `attr eq "value"` (or `eq true`), or 400 invalidFilter naming what is supported. */
export function parseEquality(filter: string, supported: readonly string[]): Equality {
  const match = EQUALITY.exec(filter);
  const attribute = match?.[1]?.toLowerCase() ?? '';
  if (!match || !supported.includes(attribute)) {
    throw scimRefusal('invalid_filter', `only "<attribute> eq \\"<value>\\"" filters on ${supported.join(', ')} are supported`);
  }
  return { attribute, value: match[2] !== undefined ? unquote(match[2]) : (match[3] ?? '').toLowerCase() };
}

export interface PatchPath {
  /** The attribute, lower-cased: `active`, `name.givenname`, `members`, `emails`. */
  attribute: string;
  /** A value filter in brackets: `members[value eq "usr_1"]`. */
  filter?: Equality;
  /** The sub-attribute after the brackets: `emails[type eq "work"].value` → `value`. */
  sub?: string;
}

const PLAIN_PATH = /^\s*([A-Za-z][\w.:$-]*)\s*$/;
const FILTERED_PATH = /^\s*([A-Za-z][\w:$-]*)\[(.+)\](?:\.([A-Za-z]\w*))?\s*$/;

/** A PATCH operation's path, or 400 invalidPath. Schema-qualified paths drop their URN (`urn:…:User:active` → `active`). */
export function parsePath(path: string): PatchPath {
  const match = PLAIN_PATH.exec(path) ?? FILTERED_PATH.exec(path);
  if (!match?.[1]) throw scimRefusal('invalid_path', `the path "${path.slice(0, 100)}" is not one this service reads`);
  const attribute = match[1].replace(/^urn:.*:/i, '').toLowerCase();
  const filter = match[2] === undefined ? undefined : parseEquality(match[2], ['value', 'type']);
  return { attribute, ...(filter ? { filter } : {}), ...(match[3] ? { sub: match[3].toLowerCase() } : {}) };
}
