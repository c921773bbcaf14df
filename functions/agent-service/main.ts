import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { getConnInfo } from '@hono/node-server/conninfo';
import { agentRoutes } from '../../shared/wiring/agent-routes.js';
import { QUERIES_IN_FLIGHT_METRIC } from '../../shared/agent/in-flight.js';
import { createAgentProcessParts } from '../../shared/wiring/agent-parts.js';
import { atApi, createApp } from '../../shared/wiring/app.js';
import { createAwsDeps } from '../../shared/wiring/aws-deps.js';
import { errorMessage } from '../../shared/platform/errors.js';
import { startAgentService } from './server.js';

// The agent loop on Fargate (lib/agent-service.ts, `agentRuntime: 'fargate'`): the query, streamed
// or not, and the MCP connectors, for every organisation, in one process per task. The client
// address: CloudFront's viewer address on a request carrying the origin secret, else the socket's
// peer (the load balancer's), as the functions do with their event's source IP.
const { config, deps, clientAddress, telemetry } = await createAwsDeps(process.env, {
  needsSession: true,
  extra: createAgentProcessParts,
  sourceAddress: (c) => getConnInfo(c).remote.address,
});

// The autoscaling signal: the queries each task runs, every 10 s (the service tracks their average).
const inFlight = new Metrics({ namespace: config.metricsNamespace });
inFlight.clearDefaultDimensions();
const service = await startAgentService(
  {
    app: createApp(deps, { routes: agentRoutes(deps).map(atApi), serves: ['agent'], clientAddress }),
    inFlight: deps.inFlight,
    logger: deps.logger,
  },
  {
    port: config.port,
    host: '0.0.0.0',
    reportEveryMs: 10_000,
    corsOrigins: (process.env.CORS_ORIGINS ?? '').split(',').filter(Boolean),
    report(running) {
      for (const [name, value] of Object.entries(QUERIES_IN_FLIGHT_METRIC.dimension)) inFlight.addDimension(name, value);
      inFlight.addMetric(QUERIES_IN_FLIGHT_METRIC.name, MetricUnit.Count, running);
      inFlight.publishStoredMetrics();
      // The queries' own metrics (EMF), which the functions write after each invocation.
      void telemetry.flush();
    },
  },
);

// ECS sends SIGTERM on a deploy or a scale-in, and SIGKILL after the task's stop timeout (2 min).
for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    deps.logger.info(`${signal} received`);
    service
      .stop()
      .then(() => telemetry.flush())
      .catch((error: unknown) => deps.logger.error('agent service did not stop cleanly', { error: errorMessage(error) }))
      .finally(() => process.exit(0));
  });
}
