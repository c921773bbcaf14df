import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import { onConditionFailed, unlessConditionFailed, type Item } from '../platform/table.js';
import { endPasswordSessions } from '../auth/sessions.js';
import { listUsers } from '../org/users.js';
import type { Sso, SsoConfigInput } from './schemas.js';

/*
 * An organisation's single sign-on setting (`ORG#<org>` / `SSO`, its client secret sealed like
 * every secret) and the claims of its e-mail domains (`SSODOMAIN#<domain>`): a domain signs in
 * through one organisation only, so the sign-in that starts from an address finds its provider.
 * The store has no transactions: the setting and its claims are kept in step by single-item
 * conditional writes and versions (`putSso`).
 */

export interface SsoItem extends Item {
  org_id: string;
  issuer: string;
  client_id: string;
  client_secret_sealed: string;
  domains: string[];
  default_role: 'member' | 'admin';
  required: boolean;
  admin_group: string | null;
  groups_claim: string | null;
  configured_by: string;
  updated_at: string;
  /** The change that wrote it (a counter per organisation: `next_version`); its domain claims carry the version that last took them. */
  version?: number;
}

/** Where the provider sends the browser back (and the only path the sign-in's browser-binding cookie is sent to). */
export const CALLBACK_PATH = '/api/auth/sso/callback';
const MASK = '••••••••';
const NOT_CONFIGURED = 'single sign-on is not configured for this organisation';

/** Where the secret opens: this organisation's SSO setting only. */
export const secretContext = (orgId: string) => `sso:${orgId}:client_secret`;

/** The redirect URI to register with the provider. */
export function ssoRedirectUri(deps: Deps, requestOrigin: string): string {
  return `${deps.config.publicBaseUrl ?? requestOrigin}${CALLBACK_PATH}`;
}

export function ssoView(item: SsoItem, redirectUri: string): Sso {
  return {
    issuer: item.issuer,
    client_id: item.client_id,
    client_secret: MASK,
    domains: item.domains,
    default_role: item.default_role,
    required: item.required,
    admin_group: item.admin_group,
    groups_claim: item.groups_claim,
    configured_by: item.configured_by,
    redirect_uri: redirectUri,
  };
}

export async function readSso(deps: Deps, orgId: string): Promise<SsoItem | undefined> {
  return configured(await deps.table.get<StoredSso>(keys.sso(orgId), true));
}

export async function getSso(deps: Deps, orgId: string): Promise<SsoItem> {
  const item = await readSso(deps, orgId);
  if (!item) throw new NotFoundError(NOT_CONFIGURED);
  return item;
}

const CHANGED_MEANWHILE = 'the single sign-on setting was changed by another request at the same time; read it and try again';
const VERSION = { '#version': 'version' };

/** The item as stored: the setting, or only its version counter and last version once none is configured. */
type StoredSso = Partial<SsoItem> & Item & { next_version?: number };

/** A setting only when one is configured: `DELETE` leaves the item's versions behind (a later writer must see them). */
const configured = (item: StoredSso | undefined): SsoItem | undefined => (item?.issuer ? (item as SsoItem) : undefined);

/**
 * A new version of the organisation's setting (a counter on its item: one atomic ADD), with the item
 * as it stands at that moment. A change writes its version only over the version it saw here, so
 * settings replace one another in one order, each by a newer version.
 */
async function nextVersion(deps: Deps, orgId: string): Promise<{ version: number; seen: StoredSso }> {
  const seen = await deps.table.update<StoredSso>(keys.sso(orgId), { update: 'ADD next_version :one', values: { ':one': 1 } });
  return { version: seen.next_version ?? 1, seen };
}

/**
 * Claims a domain for the organisation at `version`: a new claim, or the organisation's own claim
 * restamped (only ever to a newer version). A claim of another organisation is 409; the
 * organisation's own at a newer version is another change of the setting under way: 409 too, so no
 * change relies on a claim stamped by another one (which may take it back, below).
 */
async function stampClaim(deps: Deps, orgId: string, domain: string, version: number): Promise<void> {
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const stamped = await unlessConditionFailed(
      deps.table
        .update(keys.ssoDomain(domain), {
          update: 'SET #domain = :domain, org_id = :org, #version = :version',
          condition: 'attribute_not_exists(pk) OR (org_id = :org AND (attribute_not_exists(#version) OR #version < :version))',
          names: { ...VERSION, '#domain': 'domain' },
          values: { ':domain': domain, ':org': orgId, ':version': version },
        })
        .then(() => true),
      false,
    );
    if (stamped) return;
    const holder = await deps.table.get<{ org_id?: string }>(keys.ssoDomain(domain), true);
    if (holder && holder.org_id !== orgId) throw new ConflictError(`the domain ${domain} signs in through another organisation`);
    if (holder) throw new ConflictError(CHANGED_MEANWHILE);
    // Released between the two reads: claimed again.
  }
  throw new ConflictError(CHANGED_MEANWHILE);
}

/** Gives up the organisation's claims of `domains` stamped before `version` (never another organisation's, never a newer change's). */
async function releaseClaims(deps: Deps, orgId: string, domains: string[], version: number): Promise<void> {
  const condition = 'org_id = :org AND (attribute_not_exists(#version) OR #version < :version)';
  const write = { condition, names: VERSION, values: { ':org': orgId, ':version': version } };
  await Promise.all(domains.map((domain) => unlessConditionFailed(deps.table.delete(keys.ssoDomain(domain), write), undefined)));
}

/**
 * After a change that wrote no setting: its own stamps (`version`) given back, but for the domains
 * the setting now stored lists. A stamp still at `version` is relied on by no other change (they
 * stamp their own), and a setting listing the domain would have stamped it after this one.
 */
async function releaseStamps(deps: Deps, orgId: string, domains: string[], version: number): Promise<void> {
  const listed = new Set(configured(await deps.table.get<StoredSso>(keys.sso(orgId), true))?.domains ?? []);
  const write = { condition: 'org_id = :org AND #version = :version', names: VERSION, values: { ':org': orgId, ':version': version } };
  const mine = domains.filter((domain) => !listed.has(domain));
  await Promise.all(mine.map((domain) => unlessConditionFailed(deps.table.delete(keys.ssoDomain(domain), write), undefined)));
}

/** Writes the setting's attributes at `version`, only over the version `seen` (409 when another change came first). */
async function writeSetting(deps: Deps, orgId: string, seen: StoredSso, change: { set: Record<string, unknown>; remove?: string[] }) {
  const names: Record<string, string> = { ...VERSION };
  const values: Record<string, unknown> = {};
  const sets = Object.entries(change.set).map(([name, value], index) => {
    names[`#a${index}`] = name;
    values[`:a${index}`] = value;
    return `#a${index} = :a${index}`;
  });
  const removes = (change.remove ?? []).map((name, index) => {
    names[`#r${index}`] = name;
    return `#r${index}`;
  });
  const seenVersion = typeof seen.version === 'number' ? seen.version : undefined;
  if (seenVersion !== undefined) values[':seen'] = seenVersion;
  await onConditionFailed(
    deps.table.update(keys.sso(orgId), {
      update: `SET ${sets.join(', ')}${removes.length ? ` REMOVE ${removes.join(', ')}` : ''}`,
      condition: seenVersion === undefined ? 'attribute_not_exists(#version)' : '#version = :seen',
      names,
      values,
    }),
    () => new ConflictError(CHANGED_MEANWHILE),
  );
}

/**
 * `PUT /api/org/sso`: the setting replaced whole; domains no longer listed are given up. Claims are
 * taken (stamped with the change's version) before the setting that lists them is written, and the
 * domains of the setting it replaced released after, only where this organisation's claim is older
 * than this change: so however changes interleave, every domain a stored setting lists is claimed
 * by its organisation, and no organisation's claim is ever deleted by another.
 */
export async function putSso(deps: Deps, admin: { orgId: string; userId: string }, input: SsoConfigInput): Promise<SsoItem> {
  const { orgId } = admin;
  const domains = [...new Set(input.domains)];
  const { version, seen } = await nextVersion(deps, orgId);
  const previous = configured(seen);
  const item: SsoItem = {
    ...keys.sso(orgId),
    org_id: orgId,
    issuer: input.issuer.replace(/\/+$/, ''),
    client_id: input.client_id,
    client_secret_sealed: await deps.secrets.seal(input.client_secret, secretContext(orgId)),
    domains,
    default_role: input.default_role,
    required: input.required,
    admin_group: input.admin_group ?? null,
    groups_claim: input.groups_claim ?? null,
    configured_by: previous?.configured_by && previous.required === input.required ? previous.configured_by : admin.userId,
    updated_at: deps.clock.now().toISOString(),
    version,
  };
  const stamped: string[] = [];
  try {
    for (const domain of domains) {
      await stampClaim(deps, orgId, domain, version);
      stamped.push(domain);
    }
    const { pk: _pk, sk: _sk, ...set } = item;
    await writeSetting(deps, orgId, seen, { set });
  } catch (error) {
    await releaseStamps(deps, orgId, stamped, version);
    throw error;
  }
  const dropped = (previous?.domains ?? []).filter((domain) => !domains.includes(domain));
  await releaseClaims(deps, orgId, dropped, version);
  if (item.required) await endPasswordSessionsOf(deps, item);
  return item;
}

/**
 * With `required`, password sessions of the organisation's people end (single sign-on ones go on):
 * everyone's but the admin who configured it, the same people whose password sign-in is refused.
 * Done on every write of a required setting (a no-op for those who hold none); a password sign-in
 * checked a moment before the setting was written but ended after this would outlive it.
 */
async function endPasswordSessionsOf(deps: Deps, item: SsoItem): Promise<void> {
  const users = await listUsers(deps, item.org_id);
  const ids = users.filter((user) => user.id !== item.configured_by).map((user) => user.id);
  await endPasswordSessions(deps, item.org_id, ids);
}

/** `DELETE /api/org/sso`: the setting's attributes go (its versions stay, as a newer version), then its domains are released. */
export async function deleteSso(deps: Deps, orgId: string): Promise<void> {
  const { version, seen } = await nextVersion(deps, orgId);
  const item = configured(seen);
  if (!item) throw new NotFoundError(NOT_CONFIGURED);
  const remove = Object.keys(item).filter((name) => !['pk', 'sk', 'version', 'next_version'].includes(name));
  await writeSetting(deps, orgId, seen, { set: { version }, remove });
  await releaseClaims(deps, orgId, item.domains, version);
}

/** An address's domain: what follows its last `@` (`ceo@acme.test@victim.example` is of `victim.example`). */
export function domainOf(email: string): string {
  const at = email.lastIndexOf('@');
  return at < 0 ? '' : email.slice(at + 1).toLowerCase();
}

/** The organisation whose provider signs in an address, from its domain (claimed, and listed by its setting). */
export async function ssoOfEmail(deps: Deps, email: string): Promise<SsoItem | undefined> {
  const domain = domainOf(email);
  if (!domain) return undefined;
  const claim = await deps.table.get<{ org_id?: string }>(keys.ssoDomain(domain), true);
  const item = claim?.org_id ? await readSso(deps, claim.org_id) : undefined;
  return item?.domains.includes(domain) ? item : undefined;
}
