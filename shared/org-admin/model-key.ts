import { admitQuery } from '../agent/index.js';
import { modelsOf, type Deps } from '../deps.js';
import {
  checkModelKey,
  ModelConfigurationError,
  ModelError,
  modelKeySource,
  type ModelClient,
  type ModelKeySource,
  type ModelProvider,
  type SaveModelKeyInput,
} from '../models/index.js';
import { MASK, putSetting, readModelSettings } from '../org/index.js';
import { ValidationError } from '../platform/errors.js';
import type { SecretStore } from '../platform/store.js';

/*
 * Setting up the organisation's model (docs/api-decisions.md, "Organisation, users, settings and
 * secrets"): whether its questions can reach a model, for any member, and the provider and key set
 * together by an admin, tested with a one-token call before they are saved.
 */

export interface ModelKeyStatus {
  provider: ModelProvider;
  key_set: boolean;
  source: ModelKeySource | null;
}

/** `GET /api/org/model`: the provider and whose key answers, as a query would choose them; never the key. */
export async function describeModelKey(deps: SecretStore & Pick<Deps, 'config'>, orgId: string): Promise<ModelKeyStatus> {
  const settings = await readModelSettings(deps, orgId);
  const source = modelKeySource(settings, deps.config);
  return { provider: settings.provider === 'bedrock' ? 'bedrock' : 'anthropic', key_set: source !== null, source };
}

/** The field a refusal is about: the key for Anthropic, the provider for Bedrock (which takes none). */
const fieldOf = (provider: ModelProvider) => (provider === 'bedrock' ? 'provider' : 'api_key');

/** A provider's words with the key tested written as the mask, should an answer ever repeat it. */
function withoutKey(text: string, apiKey: string | undefined): string {
  return apiKey ? text.replaceAll(apiKey, MASK) : text;
}

/** The model client `input` would use (a new key, else the one already set), or a 400 saying why there is none. */
async function clientToTest(deps: Deps, orgId: string, input: SaveModelKeyInput): Promise<ModelClient> {
  if (input.provider === 'bedrock' && input.api_key !== undefined) {
    throw new ValidationError('Bedrock takes no API key', [
      { path: 'api_key', message: "Bedrock runs on the service's AWS account: leave the key out" },
    ]);
  }
  const apiKey = input.api_key ?? (input.provider === 'anthropic' ? (await readModelSettings(deps, orgId)).apiKey : undefined);
  try {
    return modelsOf(deps).clientFor({ provider: input.provider, apiKey });
  } catch (error) {
    if (!(error instanceof ModelConfigurationError)) throw error;
    const message = input.provider === 'anthropic' ? "enter the provider's API key" : error.message;
    throw new ValidationError('no model key to test', [{ path: fieldOf(input.provider), message }], { cause: error });
  }
}

/** A failed test call as a 400: the provider's own message under the field. */
function refusalOf(error: ModelError, input: SaveModelKeyInput): ValidationError {
  const said = withoutKey(error.providerMessage ?? error.message, input.api_key);
  const refused = error.status === 401 || error.status === 403;
  const message = refused
    ? `the model provider refused the key (${error.status}): nothing was saved`
    : `the key could not be tested (${error.status ? `the model API answered ${error.status}` : 'the model API did not answer'}): nothing was saved`;
  const detail = refused ? `refused by the provider: ${said}` : `could not be tested: ${said}`;
  return new ValidationError(message, [{ path: fieldOf(input.provider), message: detail }]);
}

/**
 * `POST /api/org/settings/model`: tests the provider and key with a one-token call through the
 * queries' own model client, then saves them (the key sealed, as every secret setting). A call
 * that fails, for whatever reason, saves nothing.
 */
export async function saveModelKey(deps: Deps, orgId: string, input: SaveModelKeyInput): Promise<void> {
  // A test call is a model call like a query's (perhaps on the deployment's key): it takes a place in
  // the organisation's query rate, or is 429 before anything is called.
  await admitQuery(deps, orgId);
  const client = await clientToTest(deps, orgId, input);
  try {
    await checkModelKey(client);
  } catch (error) {
    if (error instanceof ModelError) throw refusalOf(error, input);
    throw error;
  }
  if (input.api_key !== undefined) await putSetting(deps, orgId, 'ai_api_key', input.api_key);
  await putSetting(deps, orgId, 'ai_provider', input.provider);
}
