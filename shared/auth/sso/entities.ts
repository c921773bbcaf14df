import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $add, $remove, $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { list } from 'dynamodb-toolbox/schema/list';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { orgPartition } from '../../org/index.js';
import type { ConditionalWrite, Key } from '../../platform/table.js';
import { conditionOf, nullableString, tableEntity, updateOf } from '../../platform/updates.js';

/*
 * Single sign-on's items (docs/data-model.md): the organisation's setting, the claims of its e-mail
 * domains and the sign-ins under way. The writes of the setting and its claims (config.ts) are
 * typed writes (shared/platform/updates.ts), built by dynamodb-toolbox and sent by `Table`.
 */

/** The organisation's single sign-on setting (config.ts), its client secret sealed. */
export const ssoKey = (orgId: string): Key => ({ pk: orgPartition(orgId), sk: 'SSO' });

/** The claim of an e-mail domain by the organisation that signs it in: one organisation per domain. */
export const ssoDomainKey = (domain: string): Key => ({ pk: `SSODOMAIN#${domain.toLowerCase()}`, sk: 'DOMAIN' });

/** A sign-in under way with the provider (flow.ts, `PendingSignIn`): found by its `state`, single use, 10 minutes (TTL). */
export const ssoStateKey = (state: string): Key => ({ pk: `SSOSTATE#${state}`, sk: 'STATE' });

/** The values of an organisation's setting. */
export interface SsoSetting {
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

/** The setting's attributes: optional, as its item keeps only its versions once the setting is deleted. */
const settingAttributes = {
  org_id: string().optional(),
  issuer: string().optional(),
  client_id: string().optional(),
  client_secret_sealed: string().optional(),
  domains: list(string()).optional(),
  default_role: string().enum('member', 'admin').optional(),
  required: boolean().optional(),
  admin_group: nullableString.optional(),
  groups_claim: nullableString.optional(),
  configured_by: string().optional(),
  updated_at: string().optional(),
};

/** The organisation's setting (`ORG#<org>` / `SSO`), the change that wrote it (`version`) and its counter of changes. */
const ssoEntity = tableEntity('sso', {
  ...settingAttributes,
  version: number().optional(),
  next_version: number().optional(),
});

/** A domain's claim (`SSODOMAIN#<domain>` / `DOMAIN`): the organisation that holds it, at the version that last took it. */
const claimEntity = tableEntity('sso-domain', { domain: string(), org_id: string(), version: number().optional() });

/** Every attribute of the setting removed. */
const removed = Object.fromEntries(Object.keys(settingAttributes).map((name) => [name, $remove()])) as {
  [NAME in keyof typeof settingAttributes]: ReturnType<typeof $remove>;
};

/** A new version of the organisation's setting: its counter `next_version` counted up. */
export const nextVersionUpdate = (orgId: string) =>
  updateOf(ssoEntity.build(UpdateItemCommand).item({ ...ssoKey(orgId), next_version: $add(1) }));

/**
 * The setting written at `version` (without `setting`: its attributes removed), only over the
 * version `seen` (none: no version written yet).
 */
export function settingUpdate(orgId: string, version: number, seen: number | undefined, setting?: SsoSetting) {
  const command = ssoEntity
    .build(UpdateItemCommand)
    .item({ ...ssoKey(orgId), ...(setting ? { ...setting, domains: $set(setting.domains) } : removed), version })
    .options({ condition: seen === undefined ? { attr: 'version', exists: false } : { attr: 'version', eq: seen } });
  return updateOf(command);
}

/** The organisation's own claim, stamped before `version`. */
const ownClaimBefore = (orgId: string, version: number): Condition<typeof claimEntity> => ({
  and: [
    { attr: 'org_id', eq: orgId },
    { attr: 'version', lt: version },
  ],
});

/** A claim of before stamped 0, older than any change (versions start at 1), if it is still unstamped (migration 006). */
export function unstampedClaimUpdate(key: Key) {
  const command = claimEntity
    .build(UpdateItemCommand)
    .item({ ...key, version: 0 })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'version', exists: false },
        ],
      },
    });
  return updateOf(command);
}

/** `domain` claimed for the organisation at `version`: a new claim, or its own claim stamped before. */
export function claimUpdate(orgId: string, domain: string, version: number) {
  const command = claimEntity
    .build(UpdateItemCommand)
    .item({ ...ssoDomainKey(domain), domain, org_id: orgId, version })
    .options({ condition: { or: [{ attr: 'pk', exists: false }, ownClaimBefore(orgId, version)] } });
  return updateOf(command);
}

/** The condition of a claim given up by a change at `version`: the organisation's own, stamped before. */
export const claimedBefore = (orgId: string, version: number): ConditionalWrite => conditionOf(claimEntity, ownClaimBefore(orgId, version));

/** The condition of a change's own stamp given back: the organisation's claim, still at `version`. */
export const stampedAt = (orgId: string, version: number): ConditionalWrite =>
  conditionOf(claimEntity, {
    and: [
      { attr: 'org_id', eq: orgId },
      { attr: 'version', eq: version },
    ],
  });

// --- Access patterns ---

/** Claims made before claims were stamped with versions (migration 006). */
export const claimsWithoutVersion = () =>
  conditionOf(claimEntity, {
    and: [
      { attr: 'pk', beginsWith: 'SSODOMAIN#' },
      { attr: 'version', exists: false },
    ],
  });
