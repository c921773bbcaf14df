import { handle } from 'hono/aws-lambda';
import { createApp } from '../../shared/wiring/app.js';
import { createAwsDeps } from '../../shared/wiring/aws-deps.js';
import { flushedAfter } from '../../shared/platform/metrics.js';
import { apiRoutes } from '../../shared/wiring/api-routes.js';

// Built once per container; SDK clients live outside the handler. The agent's routes are served
// by the agent function (docs/architecture.md), so this bundle carries none of its code.
const { deps, clientAddress, telemetry } = await createAwsDeps(process.env, { needsSession: true });

// Its spans (when tracing is on) are sent before each invocation returns.
export const handler = flushedAfter(telemetry, handle(createApp(deps, { routes: apiRoutes(deps), serves: ['api'], clientAddress })));
