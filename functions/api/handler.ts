import { handle } from 'hono/aws-lambda';
import { createApp } from '../../shared/http/app.js';
import { createAwsDeps } from '../../shared/platform/aws-runtime.js';

// Built once per container; SDK clients live outside the handler. The agent's routes are served
// by the agent function (docs/architecture.md), so this bundle carries none of its code.
const { deps, clientAddress } = await createAwsDeps(process.env, { needsSession: true });

export const handler = handle(createApp(deps, { clientAddress }));
