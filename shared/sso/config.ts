import type { Deps } from '../deps.js';
import { ConflictError, NotFoundError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';
import type { Item } from '../platform/table.js';
import type { Sso, SsoConfigInput } from './schemas.js';

/*
 * An organisation's single sign-on setting (`ORG#<org>` / `SSO`, its client secret sealed like
 * every secret) and the claims of its e-mail domains (`SSODOMAIN#<domain>`): a domain signs in
 * through one organisation only, so the sign-in that starts from an address finds its provider.
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
}

const CALLBACK_PATH = '/api/auth/sso/callback';
const MASK = '••••••••';

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
  return deps.table.get<SsoItem>(keys.sso(orgId), true);
}

export async function getSso(deps: Deps, orgId: string): Promise<SsoItem> {
  const item = await readSso(deps, orgId);
  if (!item) throw new NotFoundError('single sign-on is not configured for this organisation');
  return item;
}

/** Claims each domain for the organisation; 409 (and no claim kept) when another organisation holds one. */
async function claimDomains(deps: Deps, orgId: string, domains: string[]): Promise<void> {
  const claimed: string[] = [];
  for (const domain of domains) {
    const taken = await deps.table.putNew({ ...keys.ssoDomain(domain), domain, org_id: orgId });
    if (taken) {
      claimed.push(domain);
      continue;
    }
    const holder = await deps.table.get<{ org_id?: string }>(keys.ssoDomain(domain), true);
    if (holder?.org_id === orgId) continue;
    await Promise.all(claimed.map((mine) => deps.table.delete(keys.ssoDomain(mine))));
    throw new ConflictError(`the domain ${domain} signs in through another organisation`);
  }
}

/** `PUT /api/org/sso`: the setting replaced whole; domains no longer listed are given up. */
export async function putSso(deps: Deps, admin: { orgId: string; userId: string }, input: SsoConfigInput): Promise<SsoItem> {
  const { orgId } = admin;
  const domains = [...new Set(input.domains)];
  const previous = await readSso(deps, orgId);
  await claimDomains(deps, orgId, domains);
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
  };
  await deps.table.put(item);
  const dropped = (previous?.domains ?? []).filter((domain) => !domains.includes(domain));
  await Promise.all(dropped.map((domain) => deps.table.delete(keys.ssoDomain(domain))));
  return item;
}

export async function deleteSso(deps: Deps, orgId: string): Promise<void> {
  const item = await getSso(deps, orgId);
  await deps.table.delete(keys.sso(orgId));
  await Promise.all(item.domains.map((domain) => deps.table.delete(keys.ssoDomain(domain))));
}

/** The organisation whose provider signs in an address, from its domain. */
export async function ssoOfEmail(deps: Deps, email: string): Promise<SsoItem | undefined> {
  const domain = email.split('@')[1]?.toLowerCase() ?? '';
  const claim = await deps.table.get<{ org_id?: string }>(keys.ssoDomain(domain), true);
  return claim?.org_id ? readSso(deps, claim.org_id) : undefined;
}
