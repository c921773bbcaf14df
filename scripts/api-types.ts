import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import openapiTS, { astToString, type OpenAPI3 } from 'openapi-typescript';
import { startLocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { createLogger } from '../shared/platform/logger.js';

/**
 * The console's API types (web/src/api/schema.d.ts), generated from the service's own OpenAPI
 * document: `npm run api-types` after a route or schema changes; a test fails while they differ.
 */

// The AWS SDK warns on Node 20 about a Node 22 requirement to come; Lambda runs nodejs22.x.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

export const API_TYPES_FILE = join(import.meta.dirname, '..', 'web', 'src', 'api', 'schema.d.ts');

/** The OpenAPI document, as `GET /api/openapi.json` answers it (an in-memory runtime, stopped after). */
export async function openApiDocument(): Promise<OpenAPI3> {
  const config = parseConfig({ DATA_DIR: 'memory', PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'SILENT' }, 'local');
  const runtime = await startLocalRuntime(config, { logger: createLogger(config) });
  try {
    const response = await fetch(`${runtime.url}/api/openapi.json`);
    return (await response.json()) as OpenAPI3;
  } finally {
    await runtime.stop();
  }
}

/** The TypeScript source of the API's types. */
export async function apiTypesSource(document: OpenAPI3): Promise<string> {
  const ast = await openapiTS(document, { alphabetize: true });
  return `// Generated from GET /api/openapi.json by scripts/api-types.ts (npm run api-types): do not edit.\n\n${astToString(ast)}`;
}

if (process.argv[1] && import.meta.filename === process.argv[1]) {
  writeFileSync(API_TYPES_FILE, await apiTypesSource(await openApiDocument()));
  console.log(`wrote ${API_TYPES_FILE}`);
}
