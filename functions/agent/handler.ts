import { handle } from 'hono/aws-lambda';
import { agentRoutes } from '../../shared/agent/http.js';
import { createAgentProcessParts } from '../../shared/agent/wiring.js';
import { createApp } from '../../shared/http/app.js';
import { createAwsDeps } from '../../shared/platform/aws-runtime.js';
import { flushedAfter } from '../../shared/platform/metrics.js';

// The query and the MCP connectors: the same app, with the agent's routes and clients. Live MCP
// sessions stay open in the warm container and are reused by its next queries.
const { deps, clientAddress, telemetry } = await createAwsDeps(process.env, { needsSession: true, extra: createAgentProcessParts });

// Its metrics are written out once each invocation has answered.
export const handler = flushedAfter(telemetry, handle(createApp(deps, { agentRoutes, clientAddress })));
