import { randomBytes, timingSafeEqual } from 'node:crypto';
import type { Deps } from '../deps.js';
import { UnauthorizedError } from '../platform/errors.js';
import { unlessConditionFailed } from '../platform/table.js';
import { type ScimItem, scimKey, syncMarkUpdate } from './entities.js';
import type { ScimStatus } from './schemas.js';
import { tokenHash } from '../platform/compare.js';

/*
 * An organisation's SCIM bearer token. The token names its organisation (`scim.<org>.<secret>`), so
 * checking it is one read of that organisation's `SCIM` item, which keeps only the token's SHA-256:
 * the token is shown once and a new one replaces the old in the same write.
 */

export const SCIM_PATH = '/scim/v2';
const TOKEN = /^scim\.([A-Za-z0-9_-]{1,64})\.([A-Za-z0-9_-]{43})$/;
/** A sync writes its time at most this often: a burst of provisioning requests is not a burst of writes. */
const SYNC_MARK_MS = 60_000;

export function scimBaseUrl(deps: Deps, requestOrigin: string): string {
  return `${deps.config.publicBaseUrl ?? requestOrigin}${SCIM_PATH}`;
}

function statusOf(item: ScimItem | undefined, baseUrl: string): ScimStatus {
  return {
    base_url: baseUrl,
    token_hint: item?.token_hint ?? null,
    token_created_at: item?.created_at ?? null,
    last_sync_at: item?.last_sync_at ?? null,
  };
}

/** `GET /api/org/scim`: where the provider sends its requests, whether a token exists, when it last synced. */
export async function scimStatus(deps: Deps, orgId: string, baseUrl: string): Promise<ScimStatus> {
  return statusOf(await deps.table.get<ScimItem>(scimKey(orgId), true), baseUrl);
}

/** `POST /api/org/scim/token`: a new token, returned this once; the previous one stops working with this write. */
export async function createScimToken(
  deps: Deps,
  admin: { orgId: string; userId: string },
  baseUrl: string,
): Promise<{ token: string; scim: ScimStatus }> {
  const token = `scim.${admin.orgId}.${randomBytes(32).toString('base64url')}`;
  const item: ScimItem = {
    ...scimKey(admin.orgId),
    token_hash: tokenHash(token),
    token_hint: `${token.slice(0, 5 + admin.orgId.length + 5)}…`,
    created_at: deps.clock.now().toISOString(),
    created_by: admin.userId,
    last_sync_at: null,
  };
  await deps.table.put(item);
  return { token, scim: statusOf(item, baseUrl) };
}

/** `DELETE /api/org/scim/token`: provisioning off; the users and teams it made stay. */
export async function deleteScimToken(deps: Deps, orgId: string): Promise<void> {
  await deps.table.delete(scimKey(orgId));
}

/** The organisation a presented SCIM token belongs to, or 401. Marks the sync time (at most once a minute). */
export async function scimOrgOf(deps: Deps, presented: string | undefined): Promise<string> {
  const match = TOKEN.exec(presented ?? '');
  const orgId = match?.[1];
  const item = orgId ? await deps.table.get<ScimItem>(scimKey(orgId), true) : undefined;
  const expected = Buffer.from(item?.token_hash ?? '0'.repeat(64), 'hex');
  const given = Buffer.from(tokenHash(presented ?? ''), 'hex');
  if (!orgId || !item || !timingSafeEqual(given, expected)) throw new UnauthorizedError('invalid SCIM token');
  const now = deps.clock.now();
  if (!item.last_sync_at || now.getTime() - Date.parse(item.last_sync_at) >= SYNC_MARK_MS) {
    // Only while this token is still the organisation's (a replacement in between keeps its own state).
    const { key, input } = syncMarkUpdate(orgId, item.token_hash, now.toISOString());
    await unlessConditionFailed(deps.table.update(key, input), undefined);
  }
  return orgId;
}
