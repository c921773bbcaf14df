import { modelTierOrDefault } from './catalogue.js';
import type { ModelClient } from './model.js';

/**
 * Whether a client's key (or account) answers: one call to the cheapest tier for one token of
 * output, through the same client as the queries'. Fails as that call's `ModelError` (a refused
 * key: 401 `authentication_error` from Anthropic's API).
 */
export async function checkModelKey(client: ModelClient): Promise<void> {
  await client.createMessage({
    model: client.modelFor(modelTierOrDefault('fast')),
    system: '',
    tools: [],
    messages: [{ role: 'user', content: [{ type: 'text', text: 'Hi' }] }],
    maxTokens: 1,
  });
}
