import { startEmbeddedStore } from '../bin/local-runtime.js';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { startHttpMcpServer } from '../test/support/mcp-servers.js';
import { failToParent, serveParent } from './child.js';

/**
 * The load benchmark's dependencies, in a process of their own so that the service's process can
 * be measured alone: the store (dynalite, in memory), the zero-latency fake model and the MCP
 * server (one read tool). Each query calls the tool once, then answers once its result is back.
 */
try {
  const store = await startEmbeddedStore(null);
  const model = await startFakeModel();
  model.handle((request: ModelRequestRecord) => {
    // The fake model keeps every request it saw; under load that would be a heap of its own.
    model.requests.length = 0;
    const last = request.body.messages.at(-1)?.content;
    const hasResult = Array.isArray(last) && last.some((block: { type?: string }) => block.type === 'tool_result');
    return hasResult ? textReply('Here is what I found.') : toolUseReply([{ name: 'search_docs', input: { query: 'reset' } }]);
  });
  const server = await startHttpMcpServer({
    name: 'bench-load',
    tools: [
      {
        name: 'search_docs',
        description: 'Search the documentation',
        annotations: { readOnlyHint: true },
        run: (args) => `results for ${String(args.query)}`,
      },
    ],
  });
  serveParent({ store: store.endpoint, model: model.url, mcp: server.url }, async () => {
    await Promise.all([model.stop(), server.stop(), store.close()]);
  });
} catch (error) {
  failToParent(error);
}
