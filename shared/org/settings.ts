import type { Store } from '../platform/store.js';
import { NotFoundError, ValidationError } from '../platform/errors.js';
import { keys } from '../platform/keys.js';

interface SettingItem {
  pk: string;
  sk: string;
  key: string;
  value: string;
  updated_at: string;
}

/** Keys the service itself reads. Other keys matching the key pattern may be stored too. */
const KNOWN_SETTING_KEYS = ['ai_api_key', 'ai_provider', 'chat_bot_token', 'chat_app_token'] as const;

const MASK = '••••••••';

/** A key ending in `_key`, `_token`, `_secret` or `_password` holds a secret (docs/api-decisions.md, Organisation, users, settings and secrets). */
function isSecretKey(key: string): boolean {
  return /_(key|token|secret|password)$/.test(key);
}

/**
 * The listed form of a secret: the mask, then its last 4 characters. A value of 8 characters or
 * fewer shows the mask only, so a short secret is never shown whole (or nearly whole).
 */
function maskSecret(value: string): string {
  return value.length > 8 ? `${MASK}${value.slice(-4)}` : MASK;
}

const VALUE_RULES: Record<string, (value: string) => string | undefined> = {
  ai_provider: (value) => (value === 'anthropic' || value === 'bedrock' ? undefined : 'must be anthropic or bedrock'),
};

export async function listSettings(
  deps: Store,
  orgId: string,
): Promise<{ settings: Record<string, string>; configured: Record<string, boolean> }> {
  const items = await deps.table.queryAll<SettingItem>({ pk: keys.orgPartition(orgId), sk: { beginsWith: keys.settingPrefix } });
  const settings: Record<string, string> = {};
  const configured: Record<string, boolean> = Object.fromEntries(KNOWN_SETTING_KEYS.map((key) => [key, false]));
  for (const item of items) {
    settings[item.key] = isSecretKey(item.key) ? maskSecret(item.value) : item.value;
    configured[item.key] = true;
  }
  return { settings, configured };
}

export async function putSetting(deps: Store, orgId: string, key: string, value: string): Promise<void> {
  const problem = VALUE_RULES[key]?.(value);
  if (problem) throw new ValidationError('invalid setting value', [{ path: 'value', message: problem }]);
  const item: SettingItem = { ...keys.setting(orgId, key), key, value, updated_at: deps.clock.now().toISOString() };
  // The app token's item is also the organisation's entry in the index the chat bridge polls.
  const indexed = key === 'chat_app_token' ? keys.chatOrganisationEntry(orgId) : {};
  await deps.table.put({ ...item, ...indexed });
}

/** Organisations with both chat tokens: one Query of the index, one BatchGet of their tokens. */
export async function listChatOrganisations(deps: Store): Promise<{ orgId: string; botToken: string; appToken: string }[]> {
  const indexed = await deps.table.queryAll<SettingItem & { gsi1sk: string }>({ index: 'gsi1', pk: keys.chatOrganisationsIndex() });
  if (!indexed.length) return [];
  const bots = await deps.table.batchGet<SettingItem>(indexed.map((item) => keys.setting(item.gsi1sk, 'chat_bot_token')));
  const botTokens = new Map(bots.map((item) => [item.pk, item.value]));
  return indexed.flatMap((item) => {
    const botToken = botTokens.get(keys.orgPartition(item.gsi1sk));
    return botToken ? [{ orgId: item.gsi1sk, botToken, appToken: item.value }] : [];
  });
}

export async function deleteSetting(deps: Store, orgId: string, key: string): Promise<void> {
  const existing = await deps.table.get(keys.setting(orgId, key));
  if (!existing) throw new NotFoundError(`setting ${key} is not set`);
  await deps.table.delete(keys.setting(orgId, key));
}

/** The plain value of one setting, for the service's own use (never for a response). */
export async function readSetting(deps: Store, orgId: string, key: string): Promise<string | undefined> {
  const item = await deps.table.get<SettingItem>(keys.setting(orgId, key));
  return item?.value;
}

/** The organisation's model settings (`ai_provider`, `ai_api_key`): one BatchGet, for the query and the statistics job. */
export async function readModelSettings(deps: Store, orgId: string): Promise<{ provider?: string; apiKey?: string }> {
  const items = await deps.table.batchGet<SettingItem>([keys.setting(orgId, 'ai_provider'), keys.setting(orgId, 'ai_api_key')]);
  const value = (key: string) => items.find((item) => item.sk === keys.setting(orgId, key).sk)?.value;
  return { provider: value('ai_provider'), apiKey: value('ai_api_key') };
}
