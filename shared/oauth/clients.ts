import { createHash } from 'node:crypto';
import type { Principal } from '../auth/index.js';
import type { Deps } from '../deps.js';
import { NotFoundError } from '../platform/errors.js';
import { revokeGrantObjects } from './adapter.js';
import { clientUseUpdate, connectedClientKey, orgClientsQuery, personClientsQuery, type ConnectedClientItem } from './entities.js';

/*
 * A person's connected clients (docs/mcp-gateway.md): one record per person and client, made by
 * their first consent, holding every grant their consents made. Revoking it deletes the grants'
 * tokens and codes: the process that revoked forgets them at once, the others within the session
 * cache's bound.
 */

/** What `GET /api/me/clients` and `GET /api/org/clients` list. */
export interface ConnectedClient {
  id: string;
  name: string;
  verified: boolean;
  redirect_host: string;
  workspaces: string[];
  created_at: string;
  last_used_at: string | null;
  user_id: string;
}

/** A connected client's id: the same for one person and client across consents, and naming neither. */
export function clientRecordId(userId: string, clientId: string): string {
  return `mcl_${createHash('sha256').update(`${userId}\n${clientId}`).digest('base64url').slice(0, 22)}`;
}

/** A consent: the client's record made, or its new grant and workspace added. */
export async function recordConsent(
  deps: Deps,
  principal: Principal,
  consent: { client: { id: string; name: string; verified: boolean; redirect_host: string }; workspaceId: string; grantId: string },
): Promise<void> {
  const id = clientRecordId(principal.userId, consent.client.id);
  const key = connectedClientKey(principal.orgId, principal.userId, id);
  const before = await deps.table.get<ConnectedClientItem>(key, true);
  const now = deps.clock.now().toISOString();
  const item: ConnectedClientItem = {
    ...key,
    id,
    org_id: principal.orgId,
    user_id: principal.userId,
    client_id: consent.client.id,
    name: consent.client.name,
    verified: consent.client.verified,
    redirect_host: consent.client.redirect_host,
    workspaces: [...new Set([...(before?.workspaces ?? []), consent.workspaceId])],
    grant_ids: [...(before?.grant_ids ?? []), consent.grantId],
    created_at: before?.created_at ?? now,
    last_used_at: now,
  };
  await deps.table.put(item);
}

const USE_EVERY_MS = 10 * 60_000;

/** Records a connected client's use, at most every 10 minutes (decided from the record the token check read). A failure is only logged. */
export function recordClientUse(deps: Deps, client: ConnectedClientItem): void {
  const now = deps.clock.now();
  if (client.last_used_at && now.getTime() - Date.parse(client.last_used_at) < USE_EVERY_MS) return;
  const { key, input } = clientUseUpdate({ pk: client.pk, sk: client.sk }, now.toISOString());
  deps.table.update(key, input).catch((error: unknown) => deps.logger.warn('recording a client use failed', { error }));
}

const listed = (item: ConnectedClientItem): ConnectedClient => ({
  id: item.id,
  name: item.name,
  verified: item.verified,
  redirect_host: item.redirect_host,
  workspaces: item.workspaces,
  created_at: item.created_at,
  last_used_at: item.last_used_at ?? null,
  user_id: item.user_id,
});

/** The caller's own connected clients, or (admin) every one of the organisation: most recently used first. */
export async function listClients(deps: Deps, principal: Principal, scope: 'mine' | 'org'): Promise<ConnectedClient[]> {
  const query = scope === 'mine' ? personClientsQuery(principal.orgId, principal.userId) : orgClientsQuery(principal.orgId);
  const items = await deps.table.queryAll<ConnectedClientItem>({ ...query, consistent: true });
  return items.map(listed).sort((a, b) => (b.last_used_at ?? b.created_at).localeCompare(a.last_used_at ?? a.created_at));
}

/** Revokes a connected client: its grants' tokens and codes go, then the record. Another person's (for `mine`) or organisation's is 404. */
export async function revokeClient(deps: Deps, principal: Principal, scope: 'mine' | 'org', id: string): Promise<void> {
  const query = scope === 'mine' ? personClientsQuery(principal.orgId, principal.userId) : orgClientsQuery(principal.orgId);
  const items = await deps.table.queryAll<ConnectedClientItem>({ ...query, consistent: true });
  const item = items.find((candidate) => candidate.id === id);
  if (!item) throw new NotFoundError(`client ${id} not found`);
  // The record first: the token check reads it, so every token of the client stops at once here and within the cache's bound elsewhere.
  await deps.table.delete({ pk: item.pk, sk: item.sk });
  deps.sessions.forgetGrants(item.grant_ids);
  for (const grantId of item.grant_ids) await revokeGrantObjects(deps, grantId);
}
