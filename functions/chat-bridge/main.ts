import { createServer } from 'node:http';
import { parseConfig } from '../../shared/platform/config.js';
import { createLogger } from '../../shared/platform/logger.js';

// The team-chat bridge process (Fargate). It serves a health check on PORT; the socket-mode
// bridge itself arrives with the team-chat work.
const config = parseConfig(process.env, 'aws');
const logger = createLogger(config);

const server = createServer((request, response) => {
  const healthy = request.url === '/health';
  response.writeHead(healthy ? 200 : 404, { 'content-type': 'application/json' });
  response.end(JSON.stringify(healthy ? { status: 'ok', bridge: 'not configured' } : { error: 'not found' }));
});
server.listen(config.port, '0.0.0.0', () => {
  logger.info(`chat bridge health check on port ${config.port}; no team-chat bridge is configured yet`);
});

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    logger.info(`${signal} received, stopping`);
    server.close(() => process.exit(0));
  });
}
