import { passwordMethodUpdate, sessionsWithoutMethod } from '../shared/auth/entities.js';
import { claimsWithoutVersion, unstampedClaimUpdate } from '../shared/auth/sso/entities.js';
import { listedFormUpdate, settingsWithoutListedForm } from '../shared/org/setting-entities.js';
import { isSecretKey, MASK, maskSecret } from '../shared/org/settings.js';
import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import { isSealed } from '../shared/platform/secrets.js';
import { conditionHeld } from '../shared/platform/table.js';

/*
 * 006: what sign-in and settings read, in the shape this version writes.
 * - A session kept before its `method` was is a password session (it was read as one): it says so.
 * - A single sign-on domain claim made before claims had versions was read as older than any
 *   change: it is stamped 0 (changes are numbered from 1).
 * - A secret setting written before its listed form was kept gets it: the mask and the last four
 *   characters of a plain value, the mask alone of a sealed one (as the list showed them).
 * Its value stays as it is here: sealing it needs the deployment's key, which the deploy's migration
 * function did not hold then; 009 seals it.
 * Each write is conditional on the item still being as read, so a run that stops is run again.
 */

async function recordSessionMethods({ table, scan, moved }: MigrationContext): Promise<void> {
  for await (const item of scan('sessions', sessionsWithoutMethod())) {
    const { key, input } = passwordMethodUpdate({ pk: item.pk, sk: item.sk });
    if (await conditionHeld(table.update(key, input))) moved();
  }
}

async function stampClaims({ table, scan, moved }: MigrationContext): Promise<void> {
  for await (const item of scan('sso claims', claimsWithoutVersion())) {
    const { key, input } = unstampedClaimUpdate({ pk: item.pk, sk: item.sk });
    if (await conditionHeld(table.update(key, input))) moved();
  }
}

async function keepListedForms({ table, scan, moved }: MigrationContext): Promise<void> {
  for await (const item of scan('settings', settingsWithoutListedForm())) {
    if (typeof item.key !== 'string' || typeof item.value !== 'string' || !isSecretKey(item.key)) continue;
    const masked = isSealed(item.value) ? MASK : maskSecret(item.value);
    const { key, input } = listedFormUpdate({ pk: item.pk, sk: item.sk }, item.value, masked);
    if (await conditionHeld(table.update(key, input))) moved();
  }
}

export const signInAndSettings: Migration = {
  version: 6,
  name: 'sessions say how they began, single sign-on claims have versions, secret settings keep their listed form',
  async run(context) {
    await recordSessionMethods(context);
    await stampClaims(context);
    await keepListedForms(context);
  },
};
