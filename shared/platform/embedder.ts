import type { EmbeddingsConfig } from './config-embeddings.js';
import type { Embedder } from './embeddings.js';

/** The embedder of the configured provider; its SDK is loaded with its first call. */
export function embedderOf(config: EmbeddingsConfig, region: string): Embedder {
  const space = `${config.provider}:${config.model}:${config.dimensions ?? ''}`;
  let loaded: Promise<Embedder> | undefined;
  const load = () => {
    loaded ??=
      config.provider === 'bedrock'
        ? import('./embeddings-bedrock.js').then(({ BedrockEmbedder }) => new BedrockEmbedder(config, region, space))
        : import('./embeddings-openai.js').then(({ OpenAiEmbedder }) => new OpenAiEmbedder(config, space));
    return loaded;
  };
  return {
    space,
    async embed(texts, purpose) {
      if (texts.length === 0) return [];
      const prefix = purpose === 'query' ? config.queryPrefix : config.passagePrefix;
      return (await load()).embed(
        texts.map((text) => prefix + text),
        purpose,
      );
    },
  };
}
