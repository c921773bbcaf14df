/** A model tier a workspace can choose, with the model it maps to and its list prices. */
export interface ModelTier {
  id: ModelTierId;
  name: string;
  /** Anthropic Messages API model id. */
  model: string;
  /** Amazon Bedrock model id, used when the organisation's `ai_provider` is `bedrock`. */
  bedrockModel: string;
  /** USD per million tokens. */
  inputCostPerMtok: number;
  outputCostPerMtok: number;
  /** Prompt caching: writes cost 1.25× input, reads 0.1× input (Anthropic's list prices). */
  cacheWriteCostPerMtok: number;
  cacheReadCostPerMtok: number;
}

/** The model providers an organisation may choose (its `ai_provider`; `anthropic` when unset). */
export const MODEL_PROVIDERS = ['anthropic', 'bedrock'] as const;
export type ModelProvider = (typeof MODEL_PROVIDERS)[number];

export const MODEL_TIER_IDS = ['fast', 'balanced', 'powerful'] as const;
type ModelTierId = (typeof MODEL_TIER_IDS)[number];
const DEFAULT_MODEL_TIER: ModelTierId = 'balanced';

function tier(id: ModelTierId, name: string, model: string, bedrockModel: string, input: number, output: number): ModelTier {
  return {
    id,
    name,
    model,
    bedrockModel,
    inputCostPerMtok: input,
    outputCostPerMtok: output,
    cacheWriteCostPerMtok: input * 1.25,
    cacheReadCostPerMtok: input * 0.1,
  };
}

/** The tiers of `GET /api/models`, each mapped to a current model and its list price. */
const MODEL_TIERS: readonly ModelTier[] = [
  tier('fast', 'Fast', 'claude-haiku-4-5', 'global.anthropic.claude-haiku-4-5-20251001-v1:0', 1, 5),
  tier('balanced', 'Balanced', 'claude-sonnet-4-6', 'global.anthropic.claude-sonnet-4-6', 3, 15),
  tier('powerful', 'Powerful', 'claude-opus-4-6', 'global.anthropic.claude-opus-4-6-v1', 5, 25),
];

export function modelTier(id: string): ModelTier | undefined {
  return MODEL_TIERS.find((candidate) => candidate.id === id);
}

/** The tier a workspace's `model` names, or the default tier for one the catalogue does not know. */
export function modelTierOrDefault(id: string): ModelTier {
  return modelTier(id) ?? (modelTier(DEFAULT_MODEL_TIER) as ModelTier);
}

/** The catalogue as `GET /api/models` answers it. */
export function listModels() {
  return MODEL_TIERS.map((model) => ({
    id: model.id,
    name: model.name,
    provider: 'anthropic',
    model: model.model,
    input_cost_per_mtok: model.inputCostPerMtok,
    output_cost_per_mtok: model.outputCostPerMtok,
    default: model.id === DEFAULT_MODEL_TIER,
  }));
}
