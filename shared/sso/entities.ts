import { Entity } from 'dynamodb-toolbox/entity';
import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $add, $remove, $set, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { item } from 'dynamodb-toolbox/schema/item';
import { list } from 'dynamodb-toolbox/schema/list';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { keys } from '../platform/keys.js';
import type { ConditionalWrite } from '../platform/table.js';
import { conditionOf, plainItems, singleTable, updateOf } from '../platform/updates.js';

/*
 * The writes of the single sign-on setting and its domain claims (config.ts): typed writes
 * (shared/platform/updates.ts), built by dynamodb-toolbox from the items' schemas and sent by `Table`.
 */

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

const nullableString = anyOf(nul(), string()).optional();

/** The setting's attributes: optional, as its item keeps only its versions once the setting is deleted. */
const settingAttributes = {
  org_id: string().optional(),
  issuer: string().optional(),
  client_id: string().optional(),
  client_secret_sealed: string().optional(),
  domains: list(string()).optional(),
  default_role: string().enum('member', 'admin').optional(),
  required: boolean().optional(),
  admin_group: nullableString,
  groups_claim: nullableString,
  configured_by: string().optional(),
  updated_at: string().optional(),
};

/** The organisation's setting (`ORG#<org>` / `SSO`), the change that wrote it (`version`) and its counter of changes. */
const ssoEntity = new Entity({
  name: 'sso',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    ...settingAttributes,
    version: number().optional(),
    next_version: number().optional(),
  }),
});

/** A domain's claim (`SSODOMAIN#<domain>` / `DOMAIN`): the organisation that holds it, at the version that last took it. */
const claimEntity = new Entity({
  name: 'sso-domain',
  table: singleTable,
  ...plainItems,
  schema: item({ pk: string().key(), sk: string().key(), domain: string(), org_id: string(), version: number().optional() }),
});

/** Every attribute of the setting removed. */
const removed = Object.fromEntries(Object.keys(settingAttributes).map((name) => [name, $remove()])) as {
  [NAME in keyof typeof settingAttributes]: ReturnType<typeof $remove>;
};

/** A new version of the organisation's setting: its counter `next_version` counted up. */
export const nextVersionUpdate = (orgId: string) =>
  updateOf(ssoEntity.build(UpdateItemCommand).item({ ...keys.sso(orgId), next_version: $add(1) }));

/**
 * The setting written at `version` (without `setting`: its attributes removed), only over the
 * version `seen` (none: no version written yet).
 */
export function settingUpdate(orgId: string, version: number, seen: number | undefined, setting?: SsoSetting) {
  const command = ssoEntity
    .build(UpdateItemCommand)
    .item({ ...keys.sso(orgId), ...(setting ? { ...setting, domains: $set(setting.domains) } : removed), version })
    .options({ condition: seen === undefined ? { attr: 'version', exists: false } : { attr: 'version', eq: seen } });
  return updateOf(command);
}

/** The organisation's own claim, stamped before `version` (or before claims had versions). */
const ownClaimBefore = (orgId: string, version: number): Condition<typeof claimEntity> => ({
  and: [
    { attr: 'org_id', eq: orgId },
    {
      or: [
        { attr: 'version', exists: false },
        { attr: 'version', lt: version },
      ],
    },
  ],
});

/** `domain` claimed for the organisation at `version`: a new claim, or its own claim stamped before. */
export function claimUpdate(orgId: string, domain: string, version: number) {
  const command = claimEntity
    .build(UpdateItemCommand)
    .item({ ...keys.ssoDomain(domain), domain, org_id: orgId, version })
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
