import { handle } from 'hono/aws-lambda';
import { agentRoutes } from '../../shared/wiring/agent-routes.js';
import { createAgentProcessParts } from '../../shared/wiring/agent-parts.js';
import { atApi, createApp } from '../../shared/wiring/app.js';
import { createAwsDeps } from '../../shared/wiring/aws-deps.js';
import { flushedAfter } from '../../shared/platform/metrics.js';

// The query and the MCP connectors: the app with the agent's routes only (API Gateway sends it no
// other), so the bundle carries none of the rest. Live MCP
// sessions stay open in the warm container and are reused by its next queries.
const { deps, clientAddress, telemetry } = await createAwsDeps(process.env, { needsSession: true, extra: createAgentProcessParts });

// Its metrics are written out once each invocation has answered.
export const handler = flushedAfter(
  telemetry,
  handle(createApp(deps, { routes: agentRoutes(deps).map(atApi), serves: ['agent'], clientAddress })),
);
