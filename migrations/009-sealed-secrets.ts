import { connectionById, grantAsRead, grantContext, grantsWithoutOrigin } from '../shared/connections/entities.js';
import { sealedValueUpdate, settingsOfEveryOrganisation } from '../shared/org/setting-entities.js';
import { isSecretKey, maskSecret, settingContext } from '../shared/org/settings.js';
import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { isSealed, SecretDecryptionError, type Secrets } from '../shared/platform/secrets.js';
import { conditionHeld, type Item, type Key, type Table } from '../shared/platform/table.js';

/*
 * 009: every stored secret sealed as this version reads it, so readers open one shape only.
 * - A secret setting written before encryption (a plain value) is sealed under its item's context
 *   (`setting:<org>:<key>`, as `putSetting` seals it), with its listed form; only while it holds the
 *   value read, so a setting written meanwhile (sealed by its write) is left as it is.
 * - An OAuth client or grant's tokens stored before grants kept their origin (sealed under
 *   `oauth:<connection>:<what>`, no origin beside it) is bound to the origin of its connection's URL,
 *   the one the reader of before bound it to at its first use: opened, sealed again under that
 *   origin, stored with it, only while it is as read (`sealed`), so one a move to another origin
 *   deleted meanwhile is not brought back. One whose connection is gone is deleted (on the same
 *   condition): connection ids are never given again, and every reader finds a connection first,
 *   so nothing could ever read it. One that does not open (altered, or sealed with another key) is
 *   left as it is and counted: without an origin it is no origin's, and its connection asks for a
 *   new grant.
 * Sealing and opening need the deployment's key: the context's `secrets` (the local runtime's key
 * file, the stack's KMS key in the deploy's function).
 */

/** The deployment's secrets, which this migration cannot run without once it meets a secret to seal. */
function secretsOf(context: MigrationContext): Secrets {
  if (!context.secrets) throw new Error("migration 009 seals stored secrets: it needs the deployment's key (the runner's `secrets`)");
  return context.secrets;
}

async function sealSettings(context: MigrationContext): Promise<void> {
  const { table, scan, moved } = context;
  for await (const item of scan('settings', settingsOfEveryOrganisation())) {
    const { key, value } = item;
    if (typeof key !== 'string' || typeof value !== 'string' || !isSecretKey(key) || isSealed(value)) continue;
    const orgId = item.pk.slice('ORG#'.length);
    const sealed = await secretsOf(context).seal(value, settingContext(orgId, key));
    const update = sealedValueUpdate({ pk: item.pk, sk: item.sk }, value, sealed, maskSecret(value));
    if (await conditionHeld(table.update(update.key, update.input))) moved();
  }
}

/** What an OAuth item holds, as its sealing context names it: `client`, or `tokens:<subject>`. */
const secretOf = (sk: string) => (sk === 'CLIENT' ? 'client' : `tokens:${sk.slice('TOKENS#'.length)}`);

/** The origin of a URL (`scheme://host:port`), or '' for none or one that does not parse: as the OAuth reader takes it (oauth.ts, `originOf`). */
function originOf(url: unknown): string {
  try {
    return new URL(typeof url === 'string' ? url : '').origin;
  } catch {
    return '';
  }
}

/** The URL of the connection an OAuth item is of, or null when the connection is gone. */
async function connectionUrl(table: Table, connectionId: string): Promise<string | undefined | null> {
  const found = await table.query<{ url?: string }>(connectionById(connectionId));
  const connection = found.items[0];
  return connection ? connection.url : null;
}

type Outcome = 'bound' | 'deleted' | 'unchanged' | 'left';

async function bindGrant(context: MigrationContext, item: Item): Promise<Outcome> {
  const { table } = context;
  const key: Key = { pk: item.pk, sk: item.sk };
  const stored = item.sealed;
  if (typeof stored !== 'string') return 'left';
  const connectionId = item.pk.slice('OAUTH#'.length);
  const url = await connectionUrl(table, connectionId);
  if (url === null) return (await conditionHeld(table.delete(key, grantAsRead(stored)))) ? 'deleted' : 'unchanged';
  const what = secretOf(item.sk);
  const secrets = secretsOf(context);
  let plain: string;
  try {
    plain = await secrets.open(stored, `oauth:${connectionId}:${what}`);
  } catch (error) {
    if (error instanceof SecretDecryptionError) return 'left';
    throw error;
  }
  const origin = originOf(url);
  const sealed = await secrets.seal(plain, grantContext(connectionId, what, origin));
  const bound = await conditionHeld(table.put({ ...item, ...key, sealed, origin }, grantAsRead(stored)));
  return bound ? 'bound' : 'unchanged';
}

async function bindGrants(context: MigrationContext): Promise<void> {
  for await (const item of context.scan('oauth', grantsWithoutOrigin())) {
    const outcome = await bindGrant(context, item);
    if (outcome === 'bound' || outcome === 'deleted') context.moved();
    else if (outcome === 'left') context.left();
  }
}

export const sealedSecrets: Migration = {
  version: 9,
  name: 'secret settings are sealed, OAuth clients and tokens are bound to their origin',
  async run(context) {
    await sealSettings(context);
    await bindGrants(context);
  },
};
