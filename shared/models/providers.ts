import { createHash } from 'node:crypto';
import { LRUCache } from 'lru-cache';
import type { Config } from '../platform/config.js';
import { tracingOn } from '../platform/tracing.js';
import { AnthropicModelClient, BedrockModelClient } from './anthropic.js';
import type { ModelClient } from './model.js';

/** The organisation's model settings (`ai_provider`, `ai_api_key`). */
export interface ModelSettings {
  provider?: string;
  apiKey?: string;
}

/** Why no model client can be made; reported as the query's error before the model runs. */
export class ModelConfigurationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ModelConfigurationError';
  }
}

/** Gives the model client for an organisation's settings. */
export interface ModelClients {
  clientFor(settings: ModelSettings): ModelClient;
}

/** A client's place in the cache: the SHA-256 of its API key, so the cache's keys are no secrets. */
function cacheKeyOf(apiKey: string): string {
  return createHash('sha256').update(apiKey).digest('base64url');
}

/**
 * The operator's Anthropic key (`ANTHROPIC_API_KEY`), when the service lends it to organisations
 * without an `ai_api_key` of their own (`ALLOW_SERVICE_MODEL_KEY`); else undefined.
 */
export function serviceModelKey(config: Pick<Config, 'anthropicApiKey' | 'allowServiceModelKey'>): string | undefined {
  return config.allowServiceModelKey ? config.anthropicApiKey : undefined;
}

/** Whose key (or account) answers an organisation's model calls: its own, or the deployment's. */
export type ModelKeySource = 'organisation' | 'deployment';

/**
 * Whose key `clientFor` would use for these settings, or null when it would refuse
 * (`ModelConfigurationError`): the same choice, made without a client.
 */
export function modelKeySource(
  settings: ModelSettings,
  config: Pick<Config, 'anthropicApiKey' | 'allowServiceModelKey'>,
): ModelKeySource | null {
  if (settings.provider === 'bedrock') return config.allowServiceModelKey ? 'deployment' : null;
  if (settings.apiKey) return 'organisation';
  return serviceModelKey(config) ? 'deployment' : null;
}

/**
 * Model clients kept per API key (so connections are reused across queries), chosen by the
 * organisation's `ai_provider`: Anthropic with its `ai_api_key` (else `ANTHROPIC_API_KEY`), or
 * Bedrock with the AWS credentials of the runtime. Both fallbacks spend the operator's account, so
 * they are open to organisations only with `ALLOW_SERVICE_MODEL_KEY=true`: where anyone can sign
 * up, each organisation brings its own key.
 *
 * Keys are tenant input (about 10 KB a client; 20 000 keys held 193 MB), so at most
 * `MODEL_CLIENT_CACHE_SIZE` clients are kept, the least recently used dropped first: a dropped
 * client holds nothing to close, and its key's next query makes a new one.
 */
export class ModelClientCache implements ModelClients {
  private readonly anthropic: LRUCache<string, ModelClient>;
  private bedrock: ModelClient | undefined;

  constructor(
    private readonly config: Pick<
      Config,
      | 'anthropicApiKey'
      | 'anthropicBaseUrl'
      | 'awsRegion'
      | 'modelTimeoutMs'
      | 'modelMaxRetries'
      | 'allowServiceModelKey'
      | 'otelCaptureContent'
      | 'modelClientCacheSize'
    >,
  ) {
    this.anthropic = new LRUCache({ max: config.modelClientCacheSize });
  }

  /** The Anthropic clients kept (at most `modelClientCacheSize`). */
  get size(): number {
    return this.anthropic.size;
  }

  clientFor(settings: ModelSettings): ModelClient {
    const options = {
      timeoutMs: this.config.modelTimeoutMs,
      maxRetries: this.config.modelMaxRetries,
      captureContent: this.config.otelCaptureContent,
      traced: tracingOn(),
    };
    const serviceAccount = this.config.allowServiceModelKey;
    if (settings.provider === 'bedrock') {
      if (!serviceAccount) {
        throw new ModelConfigurationError(
          "Bedrock runs on the service's AWS account, which this service does not lend to organisations (ALLOW_SERVICE_MODEL_KEY)",
        );
      }
      this.bedrock ??= new BedrockModelClient(this.config.awsRegion, options);
      return this.bedrock;
    }
    const apiKey = settings.apiKey ?? serviceModelKey(this.config);
    if (!apiKey) {
      throw new ModelConfigurationError(
        serviceAccount
          ? 'no model API key: an admin sets one in Organisation → Settings → Model (the setting ai_api_key), or ANTHROPIC_API_KEY on the service'
          : 'no model API key: an admin sets one in Organisation → Settings → Model (the setting ai_api_key; this service does not lend its own key to organisations)',
      );
    }
    const cacheKey = cacheKeyOf(apiKey);
    let client = this.anthropic.get(cacheKey);
    if (!client) {
      client = new AnthropicModelClient(apiKey, this.config.anthropicBaseUrl, options);
      this.anthropic.set(cacheKey, client);
    }
    return client;
  }
}
