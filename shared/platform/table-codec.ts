import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

/*
 * Items and values to and from the store's typed JSON (`{ "S": "…" }`, `{ "N": "1" }`, …), with the
 * AWS SDK's own marshalling, configured as its document client was: attributes whose value is
 * `undefined` are left out, an item is taken attribute by attribute (its own enumerable ones), and
 * a class instance inside it is refused rather than stored as a map. Binary values (`B`, `BS`) go
 * as base64 in the JSON, as the protocol wants, and come back as bytes.
 */

/** An item in the store's typed JSON. */
type Stored = Record<string, unknown>;

const OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;

type AttributeValue = { B?: unknown; BS?: unknown[]; M?: Record<string, AttributeValue>; L?: AttributeValue[] };

/** Every attribute value of a marshalled item, nested ones included, with `change` applied to each `B`/`BS`. */
function eachBinary(item: Record<string, AttributeValue>, change: (bytes: unknown) => unknown): void {
  for (const value of Object.values(item)) {
    if (!value || typeof value !== 'object') continue;
    if ('B' in value) value.B = change(value.B);
    else if (value.BS) value.BS = value.BS.map(change);
    else if (value.M) eachBinary(value.M, change);
    else if (value.L) eachBinary(value.L as unknown as Record<string, AttributeValue>, change);
  }
}

const toBase64 = (bytes: unknown) => Buffer.from(bytes as Uint8Array).toString('base64');
const fromBase64 = (text: unknown) => new Uint8Array(Buffer.from(String(text), 'base64'));

/** An item, key or set of expression values as the store takes it. */
export function toStore(value: object): Stored {
  const stored = marshall({ ...value } as Record<string, unknown>, OPTIONS) as Record<string, AttributeValue>;
  eachBinary(stored, toBase64);
  return stored;
}

function plain<T>(value: unknown): T {
  const stored = value as Record<string, AttributeValue>;
  eachBinary(stored, fromBase64);
  return unmarshall(stored as Parameters<typeof unmarshall>[0]) as T;
}

/** An item or key the store answered, as plain values (numbers as numbers); `undefined` stays `undefined`. */
export function fromStore<T extends object = Record<string, unknown>>(value: unknown): T | undefined {
  return value && typeof value === 'object' ? plain<T>(value) : undefined;
}

/** A list of items the store answered (`Items`, a batch's `Responses`), as plain values. */
export function fromStoreEach<T extends object = Record<string, unknown>>(values: unknown): T[] {
  return Array.isArray(values) ? values.map((value) => plain<T>(value)) : [];
}
