import { $add, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { number } from 'dynamodb-toolbox/schema/number';
import type { Key } from './table.js';
import { tableEntity, updateOf } from './updates.js';

/*
 * The platform's own items (docs/data-model.md): the suffix counters of unique names, and the
 * fixed-window counters that rate limits and throttles count in. Platform code knows no domain, so
 * their keys live here; a domain that counts in a window (auth's throttles) builds its own keys.
 */

/** A counter handing out the next free suffix of a slug (`SLUG#<namespace>#<slug>` / `SLUG`: unique.ts). */
const slugCounterEntity = tableEntity('slug-counter', { next: number().optional() });

/** The slug counter of `slug` in a namespace (`ws@<orgId>`, `org`). */
const slugCounterKey = (namespace: string, slug: string): Key => ({ pk: `SLUG#${namespace}#${slug}`, sk: 'SLUG' });

/** The next suffix of `slug`: the counter counted up (ALL_NEW answers it). */
export const nextSuffixUpdate = (namespace: string, slug: string) =>
  updateOf(slugCounterEntity.build(UpdateItemCommand).item({ ...slugCounterKey(namespace, slug), next: $add(1) }));

/** A fixed-window counter (windows.ts): its count, and when the window's item expires (TTL, epoch seconds). */
const windowEntity = tableEntity('window-counter', { count: number().optional(), ttl: number() });

/** `delta` added to the count of the window item `key`, which expires at `expiresAtSeconds`. */
export const windowUpdate = (key: Key, delta: number, expiresAtSeconds: number) =>
  updateOf(windowEntity.build(UpdateItemCommand).item({ ...key, count: $add(delta), ttl: expiresAtSeconds }));

/**
 * The window of one minute of requests of an organisation (`org:<id>`), a consumer key
 * (`key:<id>`), or of queries of an organisation (`queries:<id>`), all processes together
 * (request-rate.ts).
 */
export const requestRateKey = (scope: string, minute: number): Key => ({ pk: `REQRATE#${scope}`, sk: `M#${minute}` });
