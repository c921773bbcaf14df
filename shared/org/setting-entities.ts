import type { FormattedItem } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { string } from 'dynamodb-toolbox/schema/string';
import { indexAttributes, indexEntry, type Key, type QueryInput } from '../platform/table.js';
import { conditionOf, tableEntity, updateOf } from '../platform/updates.js';
import { orgPartition } from './entities.js';

/*
 * An organisation's settings (docs/data-model.md), in its partition, written whole (settings.ts).
 * The `chat_app_token` setting is also the organisation's entry in the listing of the
 * organisations the chat bridge connects.
 */

/** A setting (`ORG#<org>` / `SETTING#<key>`). */
const settingEntity = tableEntity('setting', {
  key: string(),
  /** A secret's value is sealed (`platform/secrets.ts`; those written before encryption were sealed by migration 009). */
  value: string(),
  /** A secret's listed form (settings.ts, `maskSecret`), kept at write time so listing opens no secret. */
  masked: string().optional(),
  updated_at: string(),
});

export type SettingItem = FormattedItem<typeof settingEntity>;

export const settingKey = (orgId: string, key: string): Key => ({ pk: orgPartition(orgId), sk: `SETTING#${key}` });

/** The settings of every organisation written before their listed form was kept (migration 006: the secrets among them). */
export const settingsWithoutListedForm = () =>
  conditionOf(settingEntity, {
    and: [
      { attr: 'pk', beginsWith: 'ORG#' },
      { attr: 'sk', beginsWith: 'SETTING#' },
      { attr: 'masked', exists: false },
    ],
  });

/** A secret's listed form kept, where the setting still holds `value` and has none (migration 006). */
export function listedFormUpdate(key: Key, value: string, masked: string) {
  const command = settingEntity
    .build(UpdateItemCommand)
    .item({ ...key, masked })
    .options({
      condition: {
        and: [
          { attr: 'value', eq: value },
          { attr: 'masked', exists: false },
        ],
      },
    });
  return updateOf(command);
}

/** The settings of every organisation (migration 009: the secrets among them written before encryption). */
export const settingsOfEveryOrganisation = () =>
  conditionOf(settingEntity, {
    and: [
      { attr: 'pk', beginsWith: 'ORG#' },
      { attr: 'sk', beginsWith: 'SETTING#' },
    ],
  });

/**
 * A secret's plain value (written before encryption) replaced by its sealed form, with its listed
 * form, where the setting still holds the plain value it was read with (migration 009).
 */
export function sealedValueUpdate(key: Key, plain: string, sealed: string, masked: string) {
  const command = settingEntity
    .build(UpdateItemCommand)
    .item({ ...key, value: sealed, masked })
    .options({ condition: { attr: 'value', eq: plain } });
  return updateOf(command);
}

const CHAT_ORGANISATIONS = 'CHATORGS';

/** The `chat_app_token` setting's entry in the listing of the organisations the chat bridge connects. */
export const chatOrganisationEntry = (orgId: string) => indexEntry('listings', CHAT_ORGANISATIONS, orgId);

/** The organisation a `chatOrganisations` entry is of. */
export const organisationOfChatEntry = (entry: Record<string, unknown>) => String(entry[indexAttributes('listings')[1]]);

// --- Access patterns ---

/** The settings of an organisation. */
export const settingsOfOrganisation = (orgId: string): QueryInput => ({ pk: orgPartition(orgId), sk: { beginsWith: 'SETTING#' } });

/** The organisations with a chat app token: their `chat_app_token` settings. */
export const chatOrganisations = (): QueryInput => ({ index: 'listings', pk: CHAT_ORGANISATIONS });
