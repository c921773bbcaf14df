import { handle } from 'hono/aws-lambda';
import { agentRoutes } from '../../shared/agent/http.js';
import { createAgentProcessParts } from '../../shared/agent/wiring.js';
import { createApp } from '../../shared/http/app.js';
import { createAwsDeps } from '../../shared/platform/aws-runtime.js';

// The query and the MCP connectors: the same app, with the agent's routes and clients. Live MCP
// sessions stay open in the warm container and are reused by its next queries.
const { deps, clientAddress } = await createAwsDeps(process.env, { needsSession: true, extra: createAgentProcessParts });

export const handler = handle(createApp(deps, { agentRoutes, clientAddress }));
