import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { serve, type Http2Bindings, type HttpBindings } from '@hono/node-server';
import { readDeclaredBody } from '../../bin/request-body.js';
import type { TestContext } from './context.js';

/** The test context's app served on 127.0.0.1 as the local runtime serves it (a declared body read first): its address, and how to stop it. */
export async function serveOnLoopback(t: TestContext): Promise<{ base: string; close(): Promise<void> }> {
  let server: Server | undefined;
  await new Promise<void>((resolve) => {
    const fetch = async (request: Request, env: HttpBindings | Http2Bindings) => {
      await readDeclaredBody(env.incoming);
      return t.app.fetch(request, env);
    };
    server = serve({ fetch, hostname: '127.0.0.1', port: 0 }, () => resolve()) as Server;
  });
  const running = server as unknown as Server;
  return {
    base: `http://127.0.0.1:${(running.address() as AddressInfo).port}`,
    close: async () => {
      running.closeAllConnections();
      await new Promise<void>((resolve) => running.close(() => resolve()));
    },
  };
}
