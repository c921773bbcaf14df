import { parseConfig } from '../shared/platform/config.js';
import { createLogger } from '../shared/platform/logger.js';
import { ensureConsoleBuilt } from '../web/build.js';
import { startLocalRuntime } from './local-runtime.js';
import { errorMessage } from '../shared/platform/errors.js';
import { startTracing } from '../shared/platform/tracing-sdk.js';

// The AWS SDK warns on Node 20 about a Node 22 requirement to come; Lambda runs nodejs22.x.
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

// A laptop's MCP servers live on loopback and the local network: `npm start` allows private
// addresses unless told otherwise (everywhere else the default is false).
const config = parseConfig({ MCP_ALLOW_PRIVATE_URLS: 'true', ...process.env }, 'local');
const logger = createLogger(config);
// Traces over OTLP when OTEL_EXPORTER_OTLP_ENDPOINT is set (docs/observability.md); nothing otherwise.
const tracing = startTracing(config);

try {
  // The console is built on the first start, and again when its sources change (about a second).
  await ensureConsoleBuilt((line) => logger.info(line));
  const runtime = await startLocalRuntime(config, { logger });
  if (tracing) logger.info(`sending traces to ${config.otlpEndpoint}`);
  logger.info(`workspace agent proxy listening on ${runtime.url} (open it for the web console; the API is under /api)`, {
    dataDir: runtime.deps.config.dataDir ?? 'memory',
  });
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    logger.info(`${signal} received, stopping`);
    await runtime.stop();
    await tracing?.shutdown().catch((error: unknown) => logger.warn('traces not all sent', { error: errorMessage(error) }));
    process.exit(0);
  };
  process.once('SIGINT', () => void shutdown('SIGINT'));
  process.once('SIGTERM', () => void shutdown('SIGTERM'));
} catch (error) {
  logger.error('could not start', { error: errorMessage(error) });
  process.exit(1);
}
