import { createServer, type IncomingHttpHeaders, type Server } from 'node:http';
import { onTestFinished } from 'vitest';
import type { AddressInfo } from 'node:net';
import { createDynamoClient, type DynamoClientOptions } from '../../shared/platform/dynamo.js';

/** One call the fake store received: the operation (from `X-Amz-Target`), its JSON input and headers. */
export interface StoreCall {
  operation: string;
  input: Record<string, unknown>;
  headers: IncomingHttpHeaders;
}

/**
 * What the fake store answers a call: a status and a JSON body, `'reset'` to drop the connection
 * unanswered, or `'silence'` to keep it open and answer nothing (until the store stops).
 */
export type StoreAnswer = { status?: number; body: unknown } | 'reset' | 'silence';

/**
 * A DynamoDB endpoint on loopback that answers what the test says, for what dynalite never does:
 * throttling, unprocessed batch items, 5xx, dropped connections. It speaks the JSON protocol of
 * the real service (a POST, the operation in `X-Amz-Target`), so the real client is under test.
 */
export async function startFakeStore(answer: (call: StoreCall, index: number) => StoreAnswer) {
  const calls: StoreCall[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const target = String(request.headers['x-amz-target'] ?? '');
      const call = {
        operation: target.split('.').pop() ?? '',
        input: JSON.parse(Buffer.concat(chunks).toString('utf8')),
        headers: request.headers,
      };
      calls.push(call);
      const reply = answer(call, calls.length - 1);
      if (reply === 'reset') {
        request.socket.destroy();
        return;
      }
      if (reply === 'silence') return;
      response.writeHead(reply.status ?? 200, { 'content-type': 'application/x-amz-json-1.0' });
      response.end(typeof reply.body === 'string' ? reply.body : JSON.stringify(reply.body));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    calls,
    async stop() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A fake store and the service's store client on it (the AWS SDK's, as configured), for one test: both are closed when it finishes. */
export async function clientOnFakeStore(
  answer: (call: StoreCall, index: number) => StoreAnswer,
  options: DynamoClientOptions & { region?: string } = {},
) {
  const store = await startFakeStore(answer);
  const client = createDynamoClient({ awsRegion: options.region ?? 'local' }, store.endpoint, options);
  onTestFinished(async () => {
    client.destroy();
    await store.stop();
  });
  return { client, calls: store.calls };
}
