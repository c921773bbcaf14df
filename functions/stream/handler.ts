import { streamHandle } from 'hono/aws-lambda';
import { agentRoutes } from '../../shared/agent/http.js';
import { createAgentParts } from '../../shared/agent/wiring.js';
import { createApp } from '../../shared/http/app.js';
import { STREAMABLE_ROUTES } from '../../shared/http/route-table.js';
import { serveOnly } from '../../shared/http/serve-only.js';
import { createAwsDeps, lambdaClientAddress } from '../../shared/platform/aws-runtime.js';

// The query and the messaging webhook behind a function URL with response streaming (through
// CloudFront): the agent function's app, answering only its streamable routes, as a stream that
// API Gateway's 30 s limit does not cut (docs/deploy.md).
//
// Client address: the event's source IP, never a header. A function URL can be called directly,
// so CloudFront-Viewer-Address or X-Forwarded-For could be anyone's; behind CloudFront the source
// IP is an edge server's. No route served here counts by address (only sign-up and login do, on
// the API function), so nothing depends on it; it is recorded the same way as everywhere else.
const { deps } = await createAwsDeps(process.env, { needsSession: true, extra: createAgentParts });

export const handler = streamHandle(serveOnly(createApp(deps, { agentRoutes, clientAddress: lambdaClientAddress }), STREAMABLE_ROUTES));
