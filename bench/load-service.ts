import { startLocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { failToParent, serveParent } from './child.js';
import { QUIET_LOGGER } from './report.js';

/**
 * The service under load, alone in its process: the local runtime as `npm start` runs it, on the
 * store given by `DYNAMODB_ENDPOINT` (the fixtures' process), configured by the environment.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';
try {
  const runtime = await startLocalRuntime(parseConfig(process.env, 'local'), { logger: QUIET_LOGGER });
  serveParent({ url: runtime.url }, () => runtime.stop());
} catch (error) {
  failToParent(error);
}
