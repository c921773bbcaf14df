import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { AnthropicModelClient } from '../../shared/models/anthropic.js';
import { ModelError, type ModelRequest } from '../../shared/models/model.js';
import { createGuardedFetch } from '../../shared/platform/url-policy.js';
import { errorReply, startFakeModel, textReply } from '../support/fake-model.js';

/**
 * The fetches under the SDKs, against real HTTP servers on loopback: the MCP transports' (undici's
 * fetch through the guarded agent, `platform/url-policy.ts`) and the model's (the SDK's own,
 * Node's fetch, told to follow no redirect). What `platform/http-fetch.ts` had to fix by hand when
 * it stood in for them: an abort rejects as fetch's does, a body streams, an answer no Response can
 * hold fails without holding its connection, an unread error answer throws nothing elsewhere. (A
 * Response dropped unread lets its connection go: `answer-limits.test.ts`.)
 */

interface Seen {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

const stops: (() => Promise<unknown>)[] = [];
afterEach(async () => {
  while (stops.length) await stops.pop()?.();
});

const guarded = createGuardedFetch(true);
afterAll(() => guarded.close());

async function serve(handler: (request: IncomingMessage, response: ServerResponse, seen: Seen) => void) {
  const seen: Seen[] = [];
  const server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const record = {
        method: request.method ?? '',
        url: request.url ?? '',
        headers: request.headers,
        body: Buffer.concat(chunks).toString(),
      };
      seen.push(record);
      handler(request, response, record);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  stops.push(
    () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(resolve);
      }),
  );
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe("the MCP transports' fetch (undici's, through the guarded agent)", () => {
  it('sends the method, path, query, headers and body as given, and gives back the status, status text, headers and body', async () => {
    const server = await serve((_request, response, seen) => {
      response.writeHead(201, 'Made It', [
        ['content-type', 'application/json'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]);
      response.end(JSON.stringify({ echoed: seen.body }));
    });
    const headers = new Headers({ 'content-type': 'application/json', 'x-api-key': 'secret' });
    const answer = await guarded.fetch(`${server.url}/mcp?beta=true`, { method: 'post', headers, body: '{"q":1}' });
    expect([answer.status, answer.statusText, answer.ok]).toEqual([201, 'Made It', true]);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await answer.json()).toEqual({ echoed: '{"q":1}' });
    expect(server.seen[0]).toMatchObject({ method: 'POST', url: '/mcp?beta=true', body: '{"q":1}' });
    expect(server.seen[0]?.headers).toMatchObject({ 'content-type': 'application/json', 'x-api-key': 'secret', 'content-length': '7' });

    const bytes = await guarded.fetch(`${server.url}/bytes`, {
      method: 'PUT',
      headers: [['x-one', '1']],
      body: new TextEncoder().encode('raw'),
    });
    await bytes.text();
    expect(server.seen[1]).toMatchObject({ method: 'PUT', url: '/bytes', body: 'raw' });
    expect(server.seen[1]?.headers['x-one']).toBe('1');
  });

  it('streams the body: the first event is read before the server sends the rest', async () => {
    let sendRest: () => void = () => undefined;
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      sendRest = () => response.end('data: second\n\n');
    });
    const answer = await guarded.fetch(`${server.url}/sse`, { headers: { accept: 'text/event-stream' } });
    const reader = answer.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('data: first\n\n');
    sendRest();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += decoder.decode(part.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('gives no body for 204 and HEAD', async () => {
    const server = await serve((request, response) => {
      response.writeHead(request.method === 'HEAD' ? 200 : 204, { 'x-kind': request.method ?? '' });
      response.end();
    });
    const empty = await guarded.fetch(`${server.url}/nothing`, { method: 'DELETE' });
    expect([empty.status, empty.body, empty.headers.get('x-kind')]).toEqual([204, null, 'DELETE']);
    const head = await guarded.fetch(`${server.url}/head`, { method: 'HEAD' });
    expect([head.status, head.body, head.headers.get('x-kind')]).toEqual([200, null, 'HEAD']);
  });

  it("rejects when the caller's signal aborts, with its reason before the answer, with an AbortError while its body is read", async () => {
    const server = await serve((request, response) => {
      if (request.url === '/slow-body') {
        response.writeHead(200);
        response.write('part');
      }
      // /silent: never answers.
    });
    const before = new AbortController();
    const pending = guarded.fetch(`${server.url}/silent`, { signal: before.signal });
    const reason = new DOMException('the caller gave up', 'AbortError');
    setTimeout(() => before.abort(reason), 20);
    await expect(pending).rejects.toBe(reason);

    const during = new AbortController();
    const answer = await guarded.fetch(`${server.url}/slow-body`, { signal: during.signal });
    const reader = answer.body?.getReader();
    if (!reader) throw new Error('no body');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('part');
    during.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('fails an answer no Response can hold (status 600, a body that never ends) and lets its connection go', async () => {
    const timers: NodeJS.Timeout[] = [];
    stops.push(async () => timers.forEach(clearInterval));
    const server = await serve((_request, response) => {
      response.writeHead(600, { 'content-type': 'application/json' });
      timers.push(setInterval(() => response.write('x'.repeat(1024)), 5));
    });
    const made = createGuardedFetch(true);
    const failed = await made.fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TypeError);
    expect((failed as Error).message).toBe('fetch failed');
    expect((failed as Error).cause).toBeInstanceOf(RangeError);
    // Nothing holds the connection: closing the pools does not wait for the endless body.
    const closed = await Promise.race([
      made.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(resolve, 2000, 'still open')),
    ]);
    expect(closed).toBe('closed');
  });

  it('fails with the network error in its chain when nothing listens', async () => {
    const closed = await serve(() => undefined);
    await stops.pop()?.();
    const refused = await guarded.fetch(`${closed.url}/`).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe('fetch failed');
    const chain: unknown[] = [];
    for (let error = refused; error instanceof Error; error = error.cause) chain.push((error as NodeJS.ErrnoException).code);
    expect(chain).toContain('ECONNREFUSED');
  });
});

describe("the model's fetch (the SDK's own, following no redirect)", () => {
  const request: ModelRequest = {
    model: 'm',
    system: 's',
    tools: [],
    maxTokens: 10,
    messages: [{ role: 'user', content: [{ type: 'text', text: 'x' }] }],
  };
  const modelOn = (url: string, maxRetries = 0) =>
    new AnthropicModelClient('sk-test', url, { timeoutMs: 5_000, maxRetries, traced: false });

  it('answers a redirect as an error of its status, and never sends the key where it points', async () => {
    const elsewhere = await startFakeModel();
    stops.push(() => elsewhere.stop());
    elsewhere.handle(() => textReply('should not be asked'));
    const model = await startFakeModel();
    stops.push(() => model.stop());
    model.handle(() => errorReply(307, 'moved', { location: `${elsewhere.url}/v1/messages` }));
    const failed = await modelOn(model.url, 2)
      .createMessage(request)
      .catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(ModelError);
    expect((failed as ModelError).status).toBe(307);
    // Asked once (a 3xx is not retried), with the key; the redirect's target never.
    expect(model.requests).toHaveLength(1);
    expect(model.requests[0]?.headers.authorization).toBe('Bearer sk-test');
    expect(elsewhere.requests).toHaveLength(0);
  });

  it('lets an error answer the SDK retries go unread, and throws nothing elsewhere', async () => {
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    const model = await startFakeModel();
    stops.push(() => model.stop());
    try {
      model.handle(() => errorReply(500, 'overloaded'));
      const client = modelOn(model.url, 1);
      for (let call = 0; call < 3; call += 1) {
        const failed = await client.createMessage(request).catch((error: unknown) => error);
        expect(failed).toMatchObject({ status: 500 });
      }
      // Each call and its retry reached the model.
      expect(model.requests).toHaveLength(6);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(uncaught).toEqual([]);
    } finally {
      process.off('uncaughtException', onUncaught);
    }
  });
});
