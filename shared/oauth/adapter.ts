import type { Adapter, AdapterPayload } from 'oidc-provider';
import type { Deps } from '../deps.js';
import { tokenHash } from '../platform/compare.js';
import { conditionHeld, type Key } from '../platform/table.js';
import {
  type GrantPointerItem,
  type OAuthObjectItem,
  type UidPointerItem,
  grantObjectsQuery,
  grantPointerKey,
  oauthConsumeUpdate,
  oauthObjectKey,
  uidPointerKey,
} from './entities.js';

/*
 * oidc-provider's storage (its `Adapter`) in the single table: every object by the SHA-256 of its
 * id, never the id itself (an access token's id is the token), its payload sealed (it holds the
 * id again, a session's cookie value, a client's metadata). A grant's objects are found through
 * pointers in the grant's partition, so that revoking it deletes every token issued under it.
 */

/**
 * The provider's time: oidc-provider reads the machine's clock for its objects' `exp` and checks,
 * so their TTLs and use marks are counted on the same clock (not the service's injected one).
 */
export const providerEpochSeconds = () => Math.floor(Date.now() / 1000);

/** Where a grant's pointer to an object of `model` lives, and the object's key. */
function keysOf(model: string, id: string): { key: Key; idHash: string } {
  const idHash = tokenHash(id);
  return { key: oauthObjectKey(model, idHash), idHash };
}

/** Revokes every object issued under a grant: the objects, then their pointers. */
export async function revokeGrantObjects(deps: Deps, grantId: string): Promise<void> {
  const pointers = await deps.table.queryAll<GrantPointerItem>({ ...grantObjectsQuery(grantId), consistent: true });
  await Promise.all(
    pointers.map(async (pointer) => {
      const [model, idHash] = pointer.sk.split('#');
      await deps.table.delete(oauthObjectKey(model ?? '', idHash ?? ''));
      await deps.table.delete({ pk: pointer.pk, sk: pointer.sk });
    }),
  );
}

/**
 * The adapter class oidc-provider makes one of per model (`new Adapter('AccessToken')`), over
 * `deps`. `alreadyUsed` is what `consume` throws when the object was used up meanwhile (one code
 * exchanged twice at once): the provider's invalid_grant.
 */
export function tableAdapter(deps: Deps, alreadyUsed: () => Error): new (model: string) => Adapter {
  return class TableAdapter implements Adapter {
    constructor(private readonly model: string) {}

    private context(key: Key): string {
      return `oauth-object:${key.pk}`;
    }

    async upsert(id: string, payload: AdapterPayload, expiresIn?: number): Promise<void> {
      const { key, idHash } = keysOf(this.model, id);
      const ttl = expiresIn ? providerEpochSeconds() + expiresIn : undefined;
      const sealed = await deps.secrets.seal(JSON.stringify(payload), this.context(key));
      const item: OAuthObjectItem = { ...key, sealed, ...(payload.grantId ? { grant_id: payload.grantId } : {}), ...(ttl ? { ttl } : {}) };
      await deps.table.put(item);
      const writes: Promise<void>[] = [];
      if (payload.grantId)
        writes.push(deps.table.put({ ...grantPointerKey(payload.grantId, this.model, idHash), ...(ttl ? { ttl } : {}) }));
      if (payload.uid) {
        const pointer: UidPointerItem = { ...uidPointerKey(tokenHash(payload.uid)), session: id, ...(ttl ? { ttl } : {}) };
        writes.push(deps.table.put(pointer));
      }
      await Promise.all(writes);
    }

    async find(id: string): Promise<AdapterPayload | undefined> {
      const { key } = keysOf(this.model, id);
      const item = await deps.table.get<OAuthObjectItem>(key, true);
      if (!item) return undefined;
      const payload = JSON.parse(await deps.secrets.open(item.sealed, this.context(key))) as AdapterPayload;
      return item.consumed ? { ...payload, consumed: item.consumed } : payload;
    }

    async findByUid(uid: string): Promise<AdapterPayload | undefined> {
      const pointer = await deps.table.get<UidPointerItem>(uidPointerKey(tokenHash(uid)), true);
      return pointer ? this.find(pointer.session) : undefined;
    }

    async findByUserCode(): Promise<AdapterPayload | undefined> {
      return undefined; // the device flow is not enabled
    }

    async consume(id: string): Promise<void> {
      const { key, input } = oauthConsumeUpdate(keysOf(this.model, id).key, providerEpochSeconds());
      if (!(await conditionHeld(deps.table.update(key, input)))) throw alreadyUsed();
    }

    async destroy(id: string): Promise<void> {
      await deps.table.delete(keysOf(this.model, id).key);
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await revokeGrantObjects(deps, grantId);
    }
  };
}
