import type { Server } from 'node:http';
import { serve } from '@hono/node-server';
import { Hono } from 'hono';
import { cors } from 'hono/cors';
import type { QueriesInFlight } from '../../shared/agent/in-flight.js';
import { queriesSettled } from '../../shared/http/sse.js';
import { serveOnly } from '../../shared/wiring/serve-only.js';
import { ROUTE_TABLE } from '../../shared/wiring/route-table.js';
import type { AppLogger } from '../../shared/platform/logger.js';

/**
 * The routes the agent service answers: the agent function's (the query, the MCP connectors, the
 * messaging and coding-agent endpoints, approvals' decisions) and the streamable ones, which are
 * among them. Anything else is a 404: behind the load balancer it must not be a second door to the
 * API function's routes.
 */
export const AGENT_SERVICE_ROUTES = ROUTE_TABLE.filter((entry) => entry.runs === 'agent');

/** The load balancer's idle timeout (lib/agent-service.ts). */
const LOAD_BALANCER_IDLE_MS = 120_000;

/** CORS as the HTTP API answers it (lib/api.ts): credentials, the two request headers, the four methods, an hour's preflight. */
const CORS_OF = (origins: string[]) => ({
  origin: origins,
  credentials: true,
  allowHeaders: ['content-type', 'authorization'],
  allowMethods: ['GET', 'POST', 'PUT', 'DELETE'],
  maxAge: 3600,
});

/** What the service is handed: the app (`createApp` with the agent's routes) and the place count of its queries. */
interface AgentServiceParts {
  app: { fetch(request: Request, env?: unknown): Response | Promise<Response> };
  inFlight: QueriesInFlight;
  logger: AppLogger;
}

export interface AgentServiceOptions {
  port: number;
  host: string;
  /** How often the queries in flight are reported (the autoscaling signal), in ms. */
  reportEveryMs: number;
  /** Reports the queries this process runs now: the CloudWatch metric the service scales on. */
  report(queriesInFlight: number): void;
  /**
   * Origins allowed by CORS (`CORS_ORIGINS`), as the HTTP API and the stream function's URL allow
   * them: CloudFront sends the streamable routes here, where no gateway answers CORS. Off when empty.
   */
  corsOrigins?: string[];
}

export interface AgentService {
  server: Server;
  /** The port it listens on (the one given, or the one the system chose for 0). */
  port: number;
  /**
   * Stops taking requests and waits for those it has, and for every streamed query it started
   * (whose client may have left), to finish and be stored. The health check answers 503 from the
   * first moment, so the load balancer sends nothing new.
   */
  stop(): Promise<void>;
}

/**
 * The agent loop as a long-running process (Fargate, behind an internal load balancer): the same
 * app as the agent and stream functions, on a Node HTTP server, where one process holds hundreds of
 * model waits (`MAX_QUERIES_IN_FLIGHT`) instead of one per Lambda instance (docs/capacity.md). Its
 * `/health` answers the load balancer; the queries in flight are reported on a timer for the
 * autoscaling of the service (lib/agent-service.ts).
 */
export async function startAgentService(parts: AgentServiceParts, options: AgentServiceOptions): Promise<AgentService> {
  const routes = serveOnly(parts.app, AGENT_SERVICE_ROUTES);
  let stopping = false;
  const front = new Hono();
  const origins = options.corsOrigins ?? [];
  if (origins.length) front.use('/api/*', cors(CORS_OF(origins)));
  front
    .get('/health', (c) => {
      c.header('Cache-Control', 'no-store');
      const running = parts.inFlight.running();
      return stopping
        ? c.json({ status: 'stopping', queries_in_flight: running }, 503)
        : c.json({ status: 'ok', queries_in_flight: running });
    })
    .all('*', (c) => routes.fetch(c.req.raw, c.env));
  const server = await new Promise<Server>((resolve, reject) => {
    const started = serve({ fetch: front.fetch, port: options.port, hostname: options.host }, () => resolve(started as Server));
    started.once('error', reject);
  });
  // A model call may stay quiet for minutes: no socket timeout of Node's own cuts a request.
  server.requestTimeout = 0;
  // Idle connections outlive the load balancer's (120 s, lib/agent-service.ts): it must be the one
  // to close them, or it reuses a socket Node has just closed and answers 502.
  server.keepAliveTimeout = LOAD_BALANCER_IDLE_MS + 5_000;
  server.headersTimeout = LOAD_BALANCER_IDLE_MS + 6_000;
  const report = () => options.report(parts.inFlight.running());
  const timer = setInterval(report, options.reportEveryMs);
  timer.unref();
  report();
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : options.port;
  parts.logger.info(`agent service listening on ${options.host}:${port}`);
  return {
    server,
    port,
    async stop() {
      if (stopping) return;
      stopping = true;
      parts.logger.info('agent service stopping: waiting for the queries in flight', { queries_in_flight: parts.inFlight.running() });
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await queriesSettled();
      clearInterval(timer);
      report();
      parts.logger.info('agent service stopped');
    },
  };
}
