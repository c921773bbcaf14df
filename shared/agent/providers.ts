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

/**
 * Model clients kept per API key (so connections are reused across queries), chosen by the
 * organisation's `ai_provider`: Anthropic with its `ai_api_key` (else `ANTHROPIC_API_KEY`), or
 * Bedrock with the AWS credentials of the runtime. Both fallbacks spend the operator's account, so
 * they are open to organisations only with `ALLOW_SERVICE_MODEL_KEY=true`: where anyone can sign
 * up, each organisation brings its own key.
 */
export class ModelClientCache implements ModelClients {
  private readonly anthropic = new Map<string, ModelClient>();
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
    >,
  ) {}

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
    const apiKey = settings.apiKey ?? (serviceAccount ? this.config.anthropicApiKey : undefined);
    if (!apiKey) {
      throw new ModelConfigurationError(
        serviceAccount
          ? 'no model API key: set the organisation setting ai_api_key, or ANTHROPIC_API_KEY on the service'
          : 'no model API key: set the organisation setting ai_api_key (this service does not lend its own key to organisations)',
      );
    }
    let client = this.anthropic.get(apiKey);
    if (!client) {
      client = new AnthropicModelClient(apiKey, this.config.anthropicBaseUrl, options);
      this.anthropic.set(apiKey, client);
    }
    return client;
  }
}
