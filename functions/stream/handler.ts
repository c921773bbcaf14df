import { agentRoutes } from '../../shared/wiring/agent-routes.js';
import { createAgentProcessParts } from '../../shared/wiring/agent-parts.js';
import { atApi, createApp } from '../../shared/wiring/app.js';
import { STREAMABLE_ROUTES } from '../../shared/wiring/route-table.js';
import { serveOnly } from '../../shared/wiring/serve-only.js';
import { queriesSettled } from '../../shared/http/sse.js';
import { createAwsDeps } from '../../shared/wiring/aws-deps.js';
import { streamHandleAwaiting } from '../../shared/platform/lambda-streaming.js';
import { flushedAfter } from '../../shared/platform/metrics.js';

// The query and the messaging webhook behind a function URL with response streaming (through
// CloudFront): the agent function's app, answering only its streamable routes, as a stream that
// API Gateway's 30 s limit does not cut (docs/deploy.md).
//
// Client address: as on the other HTTP functions, CloudFront-Viewer-Address only on a request that
// carries CloudFront's origin secret, else the event's source IP (the function URL can be called
// directly, with any header). No route served here counts by address (only sign-up and login do,
// on the API function); it is recorded the same way as everywhere else.
const { deps, clientAddress, telemetry } = await createAwsDeps(process.env, { needsSession: true, extra: createAgentProcessParts });

// A streamed query goes on when its client hangs up; Lambda would freeze it with the container as
// soon as the handler returned, so the handler returns once every query it started is stored.
// Its metrics are written out once every query it started is stored (they are recorded then).
export const handler = streamHandleAwaiting(
  serveOnly(createApp(deps, { routes: agentRoutes(deps).map(atApi), serves: ['agent'], clientAddress }), STREAMABLE_ROUTES),
  flushedAfter(telemetry, queriesSettled),
);
