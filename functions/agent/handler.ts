import { handle } from 'hono/aws-lambda';
import { agentRoutes } from '../../shared/wiring/agent-routes.js';
import { createAgentProcessParts } from '../../shared/wiring/agent-parts.js';
import { atApi, createApp } from '../../shared/wiring/app.js';
import { createAwsDeps } from '../../shared/wiring/aws-deps.js';
import { flushedAfter } from '../../shared/platform/metrics.js';
import { queriesSettled } from '../../shared/http/sse.js';

// The query and the MCP connectors: the app with the agent's routes only (API Gateway sends it no
// other), so the bundle carries none of the rest. Live MCP
// sessions stay open in the warm container and are reused by its next queries.
const { deps, clientAddress, telemetry } = await createAwsDeps(process.env, { needsSession: true, extra: createAgentProcessParts });

// Its metrics are written out once each invocation has answered.
const app = handle(createApp(deps, { routes: agentRoutes(deps).map(atApi), serves: ['agent'], clientAddress }));

// An MCP tool call's audit entry is written after its answer is made (shared/agent/gateway/call.ts):
// the invocation ends once it is stored, as Lambda freezes whatever still runs when it returns.
export const handler = flushedAfter(telemetry, async (...args: Parameters<typeof app>) => {
  try {
    return await app(...args);
  } finally {
    await queriesSettled();
  }
});
