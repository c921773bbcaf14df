import type { Deps } from '../../deps.js';
import { ConflictError, NotFoundError } from '../../platform/errors.js';
import { type ConditionalWrite, onConditionFailed, unlessConditionFailed, type Item } from '../../platform/table.js';
import { endPasswordSessions } from '../sessions.js';
import { MASK, listUsers } from '../../org/index.js';
import {
  claimedBefore,
  claimUpdate,
  nextVersionUpdate,
  type SsoSetting,
  settingUpdate,
  ssoDomainKey,
  ssoKey,
  stampedAt,
} from './entities.js';
import type { Sso, SsoConfigInput } from './schemas.js';

/*
 * An organisation's single sign-on setting (`ORG#<org>` / `SSO`, its client secret sealed like
 * every secret) and the claims of its e-mail domains (`SSODOMAIN#<domain>`): a domain signs in
 * through one organisation only, so the sign-in that starts from an address finds its provider.
 * The store has no transactions: the setting and its claims are kept in step by single-item
 * conditional writes and versions (`putSso`).
 */

export interface SsoItem extends Item, SsoSetting {
  /** The change that wrote it (a counter per organisation: `next_version`); its domain claims carry the version that last took them. */
  version?: number;
}

/** Where the provider sends the browser back (and the only path the sign-in's browser-binding cookie is sent to). */
export const CALLBACK_PATH = '/api/auth/sso/callback';
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

/** The organisation's setting, or undefined while none is configured (`GET /api/org/sso` answers `{ sso: null }` then). */
export async function readSso(deps: Deps, orgId: string): Promise<SsoItem | undefined> {
  return configured(await deps.table.get<StoredSso>(ssoKey(orgId), true));
}

const CHANGED_MEANWHILE = 'the single sign-on setting was changed by another request at the same time; read it and try again';

/** The item as stored: the setting, or only its version counter and last version once none is configured. */
type StoredSso = Partial<SsoItem> & Item & { next_version?: number };

/** A setting only when one is configured: `DELETE` leaves the item's versions behind (a later writer must see them). */
const configured = (item: StoredSso | undefined): SsoItem | undefined => (item?.issuer ? (item as SsoItem) : undefined);

/** A domain's claim: the organisation that holds it. */
const claimOf = (deps: Deps, domain: string) => deps.table.get<{ org_id?: string }>(ssoDomainKey(domain), true);

/**
 * A new version of the organisation's setting (a counter on its item: one atomic ADD), with the item
 * as it stands at that moment. A change writes its version only over the version it saw here, so
 * settings replace one another in one order, each by a newer version.
 */
async function nextVersion(deps: Deps, orgId: string): Promise<{ version: number; seen: StoredSso }> {
  const { key, input } = nextVersionUpdate(orgId);
  const seen = await deps.table.update<StoredSso>(key, input);
  return { version: seen.next_version ?? 1, seen };
}

/**
 * Claims a domain for the organisation at `version`: a new claim, or the organisation's own claim
 * restamped (only ever to a newer version). A claim of another organisation is 409; the
 * organisation's own at a newer version is another change of the setting under way: 409 too, so no
 * change relies on a claim stamped by another one (which may take it back, below).
 */
async function stampClaim(deps: Deps, orgId: string, domain: string, version: number): Promise<void> {
  const { key, input } = claimUpdate(orgId, domain, version);
  for (let attempt = 0; attempt < 3; attempt += 1) {
    const stamped = await unlessConditionFailed(
      deps.table.update(key, input).then(() => true),
      false,
    );
    if (stamped) return;
    const holder = await claimOf(deps, domain);
    if (holder && holder.org_id !== orgId) throw new ConflictError(`the domain ${domain} signs in through another organisation`);
    if (holder) throw new ConflictError(CHANGED_MEANWHILE);
    // Released between the two reads: claimed again.
  }
  throw new ConflictError(CHANGED_MEANWHILE);
}

/** Deletes the claims of `domains` where `write`'s condition holds (the others stay). */
async function release(deps: Deps, domains: string[], write: ConditionalWrite): Promise<void> {
  await Promise.all(domains.map((domain) => unlessConditionFailed(deps.table.delete(ssoDomainKey(domain), write), undefined)));
}

/** Gives up the organisation's claims of `domains` stamped before `version` (never another organisation's, never a newer change's). */
async function releaseClaims(deps: Deps, orgId: string, domains: string[], version: number): Promise<void> {
  await release(deps, domains, claimedBefore(orgId, version));
}

/**
 * After a change that wrote no setting: its own stamps (`version`) given back, but for the domains
 * the setting now stored lists. A stamp still at `version` is relied on by no other change (they
 * stamp their own), and a setting listing the domain would have stamped it after this one.
 */
async function releaseStamps(deps: Deps, orgId: string, domains: string[], version: number): Promise<void> {
  const listed = new Set((await readSso(deps, orgId))?.domains ?? []);
  await release(
    deps,
    domains.filter((domain) => !listed.has(domain)),
    stampedAt(orgId, version),
  );
}

/** Writes the setting at `version` (without `setting`: removes it), only over the version `seen` (409 when another change came first). */
async function writeSetting(deps: Deps, orgId: string, version: number, seen: number | undefined, setting?: SsoSetting): Promise<void> {
  const { key, input } = settingUpdate(orgId, version, seen, setting);
  await onConditionFailed(deps.table.update(key, input), () => new ConflictError(CHANGED_MEANWHILE));
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
  const setting: SsoSetting = {
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
  };
  const item: SsoItem = { ...ssoKey(orgId), ...setting, version };
  const stamped: string[] = [];
  try {
    for (const domain of domains) {
      await stampClaim(deps, orgId, domain, version);
      stamped.push(domain);
    }
    await writeSetting(deps, orgId, version, seen.version, setting);
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
  await writeSetting(deps, orgId, version, seen.version);
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
  const claim = await claimOf(deps, domain);
  const item = claim?.org_id ? await readSso(deps, claim.org_id) : undefined;
  return item?.domains.includes(domain) ? item : undefined;
}
