import type { Config } from '../platform/config.js';
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

/**
 * Model clients kept per API key (so connections are reused across queries), chosen by the
 * organisation's `ai_provider`: Anthropic with its `ai_api_key` (else `ANTHROPIC_API_KEY`), or
 * Bedrock with the AWS credentials of the runtime.
 */
export class ModelClientCache implements ModelClients {
  private readonly anthropic = new Map<string, ModelClient>();
  private bedrock: ModelClient | undefined;

  constructor(private readonly config: Pick<Config, 'anthropicApiKey' | 'anthropicBaseUrl' | 'awsRegion' | 'modelTimeoutMs' | 'modelMaxRetries'>) {}

  clientFor(settings: ModelSettings): ModelClient {
    const options = { timeoutMs: this.config.modelTimeoutMs, maxRetries: this.config.modelMaxRetries };
    if (settings.provider === 'bedrock') {
      this.bedrock ??= new BedrockModelClient(this.config.awsRegion, options);
      return this.bedrock;
    }
    const apiKey = settings.apiKey ?? this.config.anthropicApiKey;
    if (!apiKey) {
      throw new ModelConfigurationError('no model API key: set the organisation setting ai_api_key, or ANTHROPIC_API_KEY on the service');
    }
    let client = this.anthropic.get(apiKey);
    if (!client) {
      client = new AnthropicModelClient(apiKey, this.config.anthropicBaseUrl, options);
      this.anthropic.set(apiKey, client);
    }
    return client;
  }
}
