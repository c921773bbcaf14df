import { marshall, unmarshall } from '@aws-sdk/util-dynamodb';

/*
 * Items and values to and from the store's typed JSON (`{ "S": "…" }`, `{ "N": "1" }`, …), with the
 * AWS SDK's own marshalling, configured as its document client was: attributes whose value is
 * `undefined` are left out, and a class instance is refused rather than stored as a map.
 */

/** An item in the store's typed JSON. */
type Stored = Record<string, unknown>;

const OPTIONS = { removeUndefinedValues: true, convertClassInstanceToMap: false } as const;

/** An item, key or set of expression values as the store takes it. */
export function toStore(value: object): Stored {
  return marshall(value as Record<string, unknown>, OPTIONS) as Stored;
}

/** An item or key the store answered, as plain values (numbers as numbers); `undefined` stays `undefined`. */
export function fromStore<T extends object = Record<string, unknown>>(value: unknown): T | undefined {
  return value && typeof value === 'object' ? (unmarshall(value as Parameters<typeof unmarshall>[0]) as T) : undefined;
}

/** A list of items the store answered (`Items`, a batch's `Responses`), as plain values. */
export function fromStoreEach<T extends object = Record<string, unknown>>(values: unknown): T[] {
  return Array.isArray(values) ? values.map((value) => unmarshall(value as Parameters<typeof unmarshall>[0]) as T) : [];
}
