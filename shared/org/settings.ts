import { MODEL_PROVIDERS } from '../models/index.js';
import { SecretDecryptionError } from '../platform/secrets.js';
import type { SecretStore, Store } from '../platform/store.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import type { Item, Key } from '../platform/table.js';
import { webhookUrlProblem } from '../platform/webhooks.js';
import {
  chatOrganisationEntry,
  chatOrganisations,
  organisationOfChatEntry,
  type SettingItem,
  settingKey,
  settingsOfOrganisation,
} from './setting-entities.js';

/** Where a setting's sealed value belongs: it opens only in this organisation's item of this key. */
export const settingContext = (orgId: string, key: string) => `setting:${orgId}:${key}`;

/**
 * The plain value of a stored setting: a secret's is opened (every secret is sealed: migration 009
 * sealed those written before encryption), any other is stored as it is.
 */
async function plainValue(deps: SecretStore, orgId: string, item: SettingItem): Promise<string> {
  return isSecretKey(item.key) ? deps.secrets.open(item.value, settingContext(orgId, item.key)) : item.value;
}

/**
 * The same, or undefined when a secret cannot be opened (sealed with a key this deployment no
 * longer has, altered, or not sealed at all): the setting then reads as unset, and the admin sets
 * it again (docs/operations.md).
 */
async function openedOrUnset(deps: SecretStore, orgId: string, item: SettingItem | undefined): Promise<string | undefined> {
  if (!item) return undefined;
  try {
    return await plainValue(deps, orgId, item);
  } catch (error) {
    if (error instanceof SecretDecryptionError) return undefined;
    throw error;
  }
}

/** Keys the service itself reads. Other keys matching the key pattern may be stored too. */
const KNOWN_SETTING_KEYS = ['ai_api_key', 'ai_provider', 'chat_bot_token', 'chat_app_token', 'alerts_webhook_url'] as const;

export const MASK = '••••••••';

/** A key ending in `_key`, `_token`, `_secret` or `_password` holds a secret (docs/api-decisions.md, Organisation, users, settings and secrets). */
export function isSecretKey(key: string): boolean {
  return /_(key|token|secret|password)$/.test(key);
}

/**
 * The listed form of a secret: the mask, then its last 4 characters. A value of 8 characters or
 * fewer shows the mask only, so a short secret is never shown whole (or nearly whole).
 */
export function maskSecret(value: string): string {
  return value.length > 8 ? `${MASK}${value.slice(-4)}` : MASK;
}

const VALUE_RULES: Record<string, (value: string) => string | undefined> = {
  ai_provider: (value) => (MODEL_PROVIDERS.some((provider) => provider === value) ? undefined : `must be ${MODEL_PROVIDERS.join(' or ')}`),
  // Where budget alerts are POSTed (budgets/alerts.ts); the address is checked again, as a tool server's is, when it is used.
  alerts_webhook_url: webhookUrlProblem,
};

export async function listSettings(
  deps: Store,
  orgId: string,
): Promise<{ settings: Record<string, string>; configured: Record<string, boolean> }> {
  const items = await deps.table.queryAll<SettingItem>(settingsOfOrganisation(orgId));
  const settings: Record<string, string> = {};
  const configured: Record<string, boolean> = Object.fromEntries(KNOWN_SETTING_KEYS.map((key) => [key, false]));
  for (const item of items) {
    // Every secret keeps its listed form (migration 006 gave one to those written before it was kept).
    settings[item.key] = isSecretKey(item.key) ? (item.masked ?? MASK) : item.value;
    configured[item.key] = true;
  }
  return { settings, configured };
}

/** Stores a setting; a secret is sealed. */
export async function putSetting(deps: SecretStore, orgId: string, key: string, value: string): Promise<void> {
  const problem = VALUE_RULES[key]?.(value);
  if (problem) throw new ValidationError('invalid setting value', [{ path: 'value', message: problem }]);
  const stored = isSecretKey(key)
    ? { value: await deps.secrets.seal(value, settingContext(orgId, key)), masked: maskSecret(value) }
    : { value };
  const item: SettingItem = { ...settingKey(orgId, key), key, ...stored, updated_at: deps.clock.now().toISOString() };
  // The app token's item is also the organisation's entry in the index the chat bridge polls.
  const indexed = key === 'chat_app_token' ? chatOrganisationEntry(orgId) : {};
  await deps.table.put({ ...item, ...indexed });
}

/** Organisations with both chat tokens: one Query of the index, one BatchGet of their tokens. */
export async function listChatOrganisations(deps: SecretStore): Promise<{ orgId: string; botToken: string; appToken: string }[]> {
  const indexed = await deps.table.queryAll<SettingItem>(chatOrganisations());
  if (!indexed.length) return [];
  const bots = await deps.table.batchGet<SettingItem>(indexed.map((item) => settingKey(organisationOfChatEntry(item), 'chat_bot_token')));
  const botItems = new Map(bots.map((item) => [item.pk, item]));
  const organisations = await Promise.all(
    indexed.map(async (item) => {
      const orgId = organisationOfChatEntry(item);
      const [botToken, appToken] = await Promise.all([
        openedOrUnset(deps, orgId, botItems.get(settingKey(orgId, 'chat_bot_token').pk)),
        openedOrUnset(deps, orgId, item),
      ]);
      return botToken && appToken ? [{ orgId, botToken, appToken }] : [];
    }),
  );
  return organisations.flat();
}

export async function deleteSetting(deps: Store, orgId: string, key: string): Promise<void> {
  const existing = await deps.table.get(settingKey(orgId, key));
  if (!existing) throw new NotFoundError(`setting ${key} is not set`);
  await deps.table.delete(settingKey(orgId, key));
}

/** The plain value of one setting, for the service's own use (never for a response). */
export async function readSetting(deps: SecretStore, orgId: string, key: string): Promise<string | undefined> {
  const item = await deps.table.get<SettingItem>(settingKey(orgId, key));
  return openedOrUnset(deps, orgId, item);
}

/** The organisation's model settings (`ai_provider`, `ai_api_key`): one BatchGet, for the query and the statistics job. */
export async function readModelSettings(
  deps: SecretStore,
  orgId: string,
  /** Other items of the organisation read in the same BatchGet (the query's budgets); answered in `also`. */
  also: Key[] = [],
): Promise<{ provider?: string; apiKey?: string; also: Item[] }> {
  const items = await deps.table.batchGet<SettingItem & Item>([settingKey(orgId, 'ai_provider'), settingKey(orgId, 'ai_api_key'), ...also]);
  const itemOf = (key: string) => items.find((item) => item.sk === settingKey(orgId, key).sk);
  const others = items.filter((item) => also.some((key) => key.pk === item.pk && key.sk === item.sk));
  return { provider: itemOf('ai_provider')?.value, apiKey: await openedOrUnset(deps, orgId, itemOf('ai_api_key')), also: others };
}
