import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo, LookupFunction } from 'node:net';
import Anthropic from '@anthropic-ai/sdk';
import { afterEach, describe, expect, it } from 'vitest';
import { createAgentFetch, type AgentFetch } from '../../shared/platform/http-fetch.js';
import { errorReply, startFakeModel } from '../support/fake-model.js';

/**
 * The hot path's fetch (undici's request API) against a real HTTP server on loopback: what goes
 * out and comes back is what fetch would send and give, a body streams, redirects are answers,
 * aborts reject as fetch's do; what it leaves to undici's fetch (a Request, a stream body) works too.
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

function agentFetch(lookup?: LookupFunction): AgentFetch['fetch'] {
  const made = createAgentFetch(lookup);
  stops.push(made.close);
  return made.fetch;
}

describe('the hot path fetch', () => {
  it('sends the method, path, query, headers and body as given, and gives back the status, status text, headers and body', async () => {
    const server = await serve((_request, response, seen) => {
      response.writeHead(201, 'Made It', [
        ['content-type', 'application/json'],
        ['set-cookie', 'a=1'],
        ['set-cookie', 'b=2'],
      ]);
      response.end(JSON.stringify({ echoed: seen.body }));
    });
    const fetch = agentFetch();
    const headers = new Headers({ 'content-type': 'application/json', 'x-api-key': 'secret' });
    const answer = await fetch(`${server.url}/v1/messages?beta=true`, { method: 'post', headers, body: '{"q":1}' });
    expect(answer.status).toBe(201);
    expect(answer.statusText).toBe('Made It');
    expect(answer.ok).toBe(true);
    expect(answer.headers.get('content-type')).toBe('application/json');
    expect(answer.headers.getSetCookie()).toEqual(['a=1', 'b=2']);
    expect(await answer.json()).toEqual({ echoed: '{"q":1}' });
    expect(server.seen).toHaveLength(1);
    expect(server.seen[0]).toMatchObject({ method: 'POST', url: '/v1/messages?beta=true', body: '{"q":1}' });
    expect(server.seen[0]?.headers).toMatchObject({ 'content-type': 'application/json', 'x-api-key': 'secret', 'content-length': '7' });
    // Nothing asks for compression, so nothing has to be decoded.
    expect(server.seen[0]?.headers['accept-encoding']).toBeUndefined();

    const bytes = await fetch(`${server.url}/bytes`, { method: 'PUT', headers: [['x-one', '1']], body: new TextEncoder().encode('raw') });
    await bytes.text();
    expect(server.seen[1]).toMatchObject({ method: 'PUT', url: '/bytes', body: 'raw' });
    expect(server.seen[1]?.headers['x-one']).toBe('1');
  });

  it('streams the body: the first part is read before the server sends the rest', async () => {
    let sendRest: () => void = () => undefined;
    const server = await serve((_request, response) => {
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      response.write('data: first\n\n');
      sendRest = () => response.end('data: second\n\n');
    });
    const answer = await agentFetch()(`${server.url}/sse`, {});
    const reader = answer.body?.getReader();
    if (!reader) throw new Error('no body');
    const decoder = new TextDecoder();
    expect(decoder.decode((await reader.read()).value)).toBe('data: first\n\n');
    sendRest();
    let rest = '';
    for (let part = await reader.read(); !part.done; part = await reader.read()) rest += decoder.decode(part.value);
    expect(rest).toBe('data: second\n\n');
  });

  it('follows no redirect: the 3xx is the answer, and the target is never asked', async () => {
    const target = await serve((_request, response) => response.end('moved here'));
    const server = await serve((_request, response) => {
      response.writeHead(307, { location: `${target.url}/elsewhere` });
      response.end();
    });
    const fetch = agentFetch();
    const answer = await fetch(`${server.url}/v1/messages`, { method: 'POST', headers: { 'x-api-key': 'secret' }, body: '{}' });
    expect(answer.status).toBe(307);
    expect(answer.headers.get('location')).toBe(`${target.url}/elsewhere`);
    // What it hands to undici's fetch (a Request, a stream body) follows none either.
    const request = await fetch(new Request(`${server.url}/as-request`, { method: 'POST', body: 'in a request' }), {});
    expect(request.status).toBe(307);
    const stream = new ReadableStream({
      start(controller) {
        controller.enqueue(new TextEncoder().encode('streamed'));
        controller.close();
      },
    });
    const streamed = await fetch(`${server.url}/streamed`, { method: 'POST', body: stream, duplex: 'half' } as RequestInit);
    expect(streamed.status).toBe(307);
    expect(server.seen.map((seen) => [seen.url, seen.body])).toEqual([
      ['/v1/messages', '{}'],
      ['/as-request', 'in a request'],
      ['/streamed', 'streamed'],
    ]);
    expect(target.seen).toHaveLength(0);
  });

  it('gives no body for 204 and HEAD', async () => {
    const server = await serve((request, response) => {
      response.writeHead(request.method === 'HEAD' ? 200 : 204, { 'x-kind': request.method ?? '' });
      response.end();
    });
    const fetch = agentFetch();
    const empty = await fetch(`${server.url}/nothing`, { method: 'DELETE' });
    expect([empty.status, empty.body, empty.headers.get('x-kind')]).toEqual([204, null, 'DELETE']);
    const head = await fetch(`${server.url}/head`, { method: 'HEAD' });
    expect([head.status, head.body, head.headers.get('x-kind')]).toEqual([200, null, 'HEAD']);
  });

  it("rejects when the caller's signal aborts, with its reason before the answer, with an AbortError while its body is read", async () => {
    let answered = false;
    const server = await serve((request, response) => {
      if (request.url === '/slow-body') {
        response.writeHead(200);
        response.write('part');
        answered = true;
      }
      // /silent: never answers.
    });
    const fetch = agentFetch();
    const before = new AbortController();
    const pending = fetch(`${server.url}/silent`, { signal: before.signal });
    const reason = new DOMException('the caller gave up', 'AbortError');
    setTimeout(() => before.abort(reason), 20);
    // As fetch: the signal's reason.
    await expect(pending).rejects.toBe(reason);

    const during = new AbortController();
    const answer = await fetch(`${server.url}/slow-body`, { signal: during.signal });
    const reader = answer.body?.getReader();
    if (!reader) throw new Error('no body');
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('part');
    expect(answered).toBe(true);
    during.abort();
    await expect(reader.read()).rejects.toMatchObject({ name: 'AbortError' });
  });

  it('lets a body go unread: an error answer the model SDK retries throws nothing elsewhere', async () => {
    // Node 20's Readable.toWeb went on pushing into a stream the SDK had cancelled, and threw
    // where nothing catches it: one uncaught exception per retried answer.
    const uncaught: unknown[] = [];
    const onUncaught = (error: unknown) => uncaught.push(error);
    process.on('uncaughtException', onUncaught);
    const model = await startFakeModel();
    stops.push(() => model.stop());
    try {
      model.handle(() => errorReply(500, 'overloaded'));
      const client = new Anthropic({ apiKey: 'k', baseURL: model.url, maxRetries: 1, fetch: agentFetch() });
      for (let call = 0; call < 3; call += 1) {
        const params = { model: 'm', max_tokens: 10, messages: [{ role: 'user' as const, content: 'x' }] };
        const failed = await client.messages
          .stream(params)
          .finalMessage()
          .catch((error: unknown) => error);
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

  it('fails an answer no Response can hold (status 600, a body that never ends) and lets its connection go', async () => {
    const timers: NodeJS.Timeout[] = [];
    stops.push(async () => timers.forEach(clearInterval));
    const server = await serve((_request, response) => {
      response.writeHead(600, { 'content-type': 'application/json' });
      timers.push(setInterval(() => response.write('x'.repeat(1024)), 5));
    });
    const made = createAgentFetch();
    const failed = await made.fetch(`${server.url}/mcp`, { method: 'POST', body: '{}' }).catch((error: unknown) => error);
    expect(failed).toBeInstanceOf(TypeError);
    expect((failed as Error).message).toBe('fetch failed');
    expect((failed as Error).cause).toBeInstanceOf(RangeError);
    // Nothing holds the connection: closing the pool does not wait for the endless body.
    const closed = await Promise.race([
      made.close().then(() => 'closed'),
      new Promise((resolve) => setTimeout(resolve, 2000, 'still open')),
    ]);
    expect(closed).toBe('closed');
  });

  it('lets the connection of a Response dropped unread go once it is collected; one still kept holds it', () => {
    // In a process of its own, with the garbage collector at hand (test/fixtures/dropped-body.ts).
    const run = (mode: string) =>
      execFileSync(process.execPath, ['--expose-gc', '--import', 'tsx', 'test/fixtures/dropped-body.ts', mode], {
        encoding: 'utf8',
        timeout: 20_000,
      }).trim();
    expect(run('dropped')).toBe('closed dropped uncaught 0');
    expect(run('kept')).toBe('still open kept, read data uncaught 0');
  });

  it('fails with the network error in its chain when nothing listens, and connects through the lookup it was given', async () => {
    const closed = await serve(() => undefined);
    await stops.pop()?.();
    const refused = await agentFetch()(`${closed.url}/`, {}).catch((error: unknown) => error);
    // As fetch: a TypeError whose cause is the network's error.
    expect(refused).toBeInstanceOf(TypeError);
    expect((refused as Error).message).toBe('fetch failed');
    const chain: unknown[] = [];
    for (let error = refused; error instanceof Error; error = error.cause) chain.push((error as NodeJS.ErrnoException).code);
    expect(chain).toContain('ECONNREFUSED');

    const server = await serve((_request, response) => response.end('reached'));
    const looked: string[] = [];
    const lookup = ((hostname: string, options: { all?: boolean }, callback: (error: Error | null, ...answer: unknown[]) => void) => {
      looked.push(hostname);
      if (options.all) callback(null, [{ address: '127.0.0.1', family: 4 }]);
      else callback(null, '127.0.0.1', 4);
    }) as unknown as LookupFunction;
    const port = new URL(server.url).port;
    const answer = await agentFetch(lookup)(`http://tools.example.test:${port}/`, {});
    expect(await answer.text()).toBe('reached');
    expect(looked).toEqual(['tools.example.test']);
    expect(server.seen[0]?.headers.host).toBe(`tools.example.test:${port}`);
  });
});
