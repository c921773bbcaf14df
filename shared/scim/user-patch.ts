import { emailAddress } from '../http/schemas.js';
import type { ProvisionedUserFields, UserItem } from '../org/index.js';
import type { ValidationError } from '../platform/errors.js';
import { scimRefusal } from './errors.js';
import { parsePath } from './filter.js';
import { personName, scimBoolean, type ScimPatchOperation } from './schemas.js';

/*
 * A PATCH of a user, in the forms identity providers send: Okta's `{ op: "replace", value: {
 * active: false } }` (no path, a value object), Microsoft Entra ID's `{ op: "Replace", path:
 * "active", value: "False" }` and its dotted keys (`{ "name.givenName": "Ana" }`), and value-filtered
 * paths (`emails[type eq "work"].value`). Attributes the service does not keep are ignored.
 */

function invalid(attribute: string, why: string): ValidationError {
  return scimRefusal('invalid', `${attribute}: ${why}`);
}

function textOf(attribute: string, value: unknown, max: number): string {
  if (typeof value !== 'string' || value.trim() === '') throw invalid(attribute, 'must be a non-empty string');
  if (value.trim().length > max) throw invalid(attribute, `must be at most ${max} characters`);
  return value.trim();
}

/** A name through the users API's schema (`personName`). */
function nameValue(attribute: string, value: unknown): string {
  const parsed = personName.safeParse(value);
  if (!parsed.success) throw invalid(attribute, parsed.error.issues[0]?.message ?? 'must be a name');
  return parsed.data;
}

function emailValue(value: unknown): string {
  const parsed = emailAddress.safeParse(value);
  if (!parsed.success) throw invalid('userName', 'must be an e-mail address: it is what the user signs in with');
  return parsed.data;
}

/** The address of an `emails` value: a list of `{ value, primary? }`, the primary one first. */
function emailOfList(value: unknown): string {
  const list = Array.isArray(value) ? (value as { value?: unknown; primary?: unknown }[]) : [];
  const chosen = list.find((entry) => entry?.primary === true || entry?.primary === 'True') ?? list[0];
  return emailValue(chosen?.value);
}

type Setter = (fields: ProvisionedUserFields, value: unknown) => void;

/** The attributes a user keeps, by lower-cased path. */
const SETTERS: Record<string, Setter> = {
  active: (fields, value) => {
    const parsed = scimBoolean.safeParse(value);
    if (!parsed.success) throw invalid('active', 'must be true or false');
    fields.active = parsed.data;
  },
  username: (fields, value) => {
    fields.email = emailValue(value);
  },
  displayname: (fields, value) => {
    fields.name = nameValue('displayName', value);
  },
  externalid: (fields, value) => {
    fields.external_id = textOf('externalId', value, 200);
  },
  'name.givenname': (fields, value) => {
    fields.given_name = nameValue('name.givenName', value);
  },
  'name.familyname': (fields, value) => {
    fields.family_name = nameValue('name.familyName', value);
  },
  'name.formatted': (fields, value) => {
    fields.name = nameValue('name.formatted', value);
  },
  name: (fields, value) => {
    if (typeof value !== 'object' || value === null) throw invalid('name', 'must be an object');
    for (const [key, part] of Object.entries(value)) SETTERS[`name.${key.toLowerCase()}`]?.(fields, part);
  },
  emails: (fields, value) => {
    fields.email = emailOfList(value);
  },
};

/** What `remove` may clear; the address and the active flag are required and cannot be removed. */
const CLEARABLE: Record<string, (fields: ProvisionedUserFields, item: UserItem) => void> = {
  externalid: (fields) => {
    fields.external_id = null;
  },
  'name.givenname': (fields) => {
    fields.given_name = null;
  },
  'name.familyname': (fields) => {
    fields.family_name = null;
  },
  displayname: (fields, item) => {
    fields.name = item.email;
  },
};

function setByPath(fields: ProvisionedUserFields, path: string, value: unknown): void {
  const parsed = parsePath(path);
  if (parsed.attribute === 'emails' && parsed.filter) {
    // emails[type eq "work"].value: the address itself; emails[type eq "work"]: an entry.
    fields.email = parsed.sub === 'value' ? emailValue(value) : emailOfList([value]);
    return;
  }
  SETTERS[parsed.attribute]?.(fields, value);
}

function apply(fields: ProvisionedUserFields, item: UserItem, operation: ScimPatchOperation): void {
  const { op, path, value } = operation;
  if (op === 'remove') {
    if (!path) throw scimRefusal('no_target', 'a remove operation needs a path');
    const attribute = parsePath(path).attribute;
    const clear = CLEARABLE[attribute];
    if (clear) clear(fields, item);
    else if (SETTERS[attribute]) throw scimRefusal('immutable', `${path} cannot be removed`);
    return;
  }
  if (path) {
    setByPath(fields, path, value);
    return;
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw scimRefusal('invalid', 'an operation without a path needs an object of attributes as its value');
  }
  for (const [key, part] of Object.entries(value)) setByPath(fields, key, part);
}

/** The user's fields after the operations, in order (nothing is written here). */
export function patchUser(item: UserItem, operations: ScimPatchOperation[]): ProvisionedUserFields {
  const fields: ProvisionedUserFields = {
    email: item.email,
    name: item.name,
    given_name: item.given_name ?? null,
    family_name: item.family_name ?? null,
    external_id: item.external_id ?? null,
    active: item.active !== false,
  };
  for (const operation of operations) apply(fields, item, operation);
  return fields;
}
