import { Ajv } from 'ajv';
import addFormats from 'ajv-formats';
import { AjvJsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/ajv';
import type { JsonSchemaType, JsonSchemaValidator, jsonSchemaValidator } from '@modelcontextprotocol/sdk/validation/types.js';
import { loadPatternEngine, schemaPattern } from '../guardrails/index.js';

/*
 * How the MCP client checks a tool's structured result against the tool's output schema. The
 * client's default is ajv with JavaScript's RegExp, which a tool server's schema could make
 * backtrack for as long as it likes (see `schemaPattern`). This is the same ajv, with RE2 for
 * `pattern`, one per MCP session (ajv keeps every schema it compiles, and by `$id`), as the client
 * makes its own.
 */

/** Accepts anything: for a schema ajv cannot compile, as for a tool without an output schema. */
const unchecked: JsonSchemaValidator<unknown> = (input) => ({ valid: true, data: input, errorMessage: undefined });

/**
 * The validator of one MCP session, once RE2 (the guardrails' engine, loaded on first need) is. A
 * schema it cannot compile (a pattern RE2 refuses, or a schema ajv refuses) is left unchecked rather than
 * failing the whole tool list: the result goes to the model as text either way, and the service
 * reads nothing from it.
 */
export async function outputSchemaValidator(): Promise<jsonSchemaValidator> {
  await loadPatternEngine();
  const ajv = new Ajv({ strict: false, validateFormats: true, validateSchema: false, allErrors: true, code: { regExp: schemaPattern } });
  addFormats.default(ajv);
  const checked = new AjvJsonSchemaValidator(ajv);
  return {
    getValidator<T>(schema: JsonSchemaType): JsonSchemaValidator<T> {
      try {
        return checked.getValidator<T>(schema);
      } catch {
        return unchecked as JsonSchemaValidator<T>;
      }
    },
  };
}
