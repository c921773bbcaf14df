import { createServer } from 'node:http';
import { createAgentParts } from '../../shared/wiring/agent-parts.js';
import { ChatBridge } from '../../shared/chat-bot/bridge.js';
import { TeamChatNotifier } from '../../shared/chat-bot/notifier.js';
import { requireAgentDeps } from '../../shared/deps.js';
import { createAwsDeps } from '../../shared/wiring/aws-deps.js';

// The team-chat bridge on Fargate: the socket-mode connections of every organisation with chat
// tokens, running the agent loop for their messages, and a health check on PORT.
const { config, deps: core } = await createAwsDeps(process.env, {
  needsSession: false,
  extra: (configuration, logger, store) => ({
    ...createAgentParts(configuration, logger),
    chat: new TeamChatNotifier(store, configuration.slackApiUrl),
  }),
});
const deps = requireAgentDeps(core);
const bridge = new ChatBridge(deps, { pollMs: config.chatBridgePollMs });
await bridge.start();

const server = createServer((request, response) => {
  const healthy = request.url === '/health';
  response.writeHead(healthy ? 200 : 404, { 'content-type': 'application/json' });
  response.end(JSON.stringify(healthy ? { status: 'ok', organisations: bridge.connectedOrganisations.length } : { error: 'not found' }));
});
server.listen(config.port, '0.0.0.0', () => deps.logger.info(`chat bridge running; health check on port ${config.port}`));

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  process.once(signal, () => {
    deps.logger.info(`${signal} received, stopping`);
    void bridge.stop().finally(() => server.close(() => process.exit(0)));
  });
}
