import { handle } from 'hono/aws-lambda';
import { createApp } from '../../shared/http/app.js';
import { createAwsDeps } from '../../shared/platform/aws-runtime.js';
import { flushedAfter } from '../../shared/platform/metrics.js';

// Built once per container; SDK clients live outside the handler. The agent's routes are served
// by the agent function (docs/architecture.md), so this bundle carries none of its code.
const { deps, clientAddress, telemetry } = await createAwsDeps(process.env, { needsSession: true });

// Its spans (when tracing is on) are sent before each invocation returns.
export const handler = flushedAfter(telemetry, handle(createApp(deps, { clientAddress })));
