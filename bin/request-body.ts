import type { IncomingHttpHeaders } from 'node:http';
import { MAX_BODY_BYTES } from '../shared/http/middleware.js';

/*
 * The local runtime's request bodies. @hono/node-server turns a request into a web `Request` the
 * first time anything reads its body: undici's Request, the IncomingMessage made a web stream,
 * the body read back through it. For a JSON body of a few hundred bytes that is most of what the
 * API does before its handler runs.
 */

/**
 * Reads an API request's body at once when it declares its length (at most 1 MiB) into
 * `incoming.rawBody`, the Buffer @hono/node-server builds any `Request` of the request from; the
 * API's body middleware hands it to Hono as the body's text (`limitBodies`), so a handler reads
 * JSON without a web stream. A body without a declared length, or a longer one, is left to the
 * app, which refuses it (413) or reads it as before. A client gone before its body arrived leaves
 * nothing: the app then finds the body as Node does.
 */
export async function readDeclaredBody(
  incoming: AsyncIterable<unknown> & { method?: string; headers: IncomingHttpHeaders; rawBody?: Buffer },
): Promise<void> {
  const { method, headers } = incoming;
  if (method !== 'POST' && method !== 'PUT' && method !== 'PATCH') return;
  const declared = Number(headers['content-length']);
  if (!Number.isInteger(declared) || declared <= 0 || declared > MAX_BODY_BYTES || headers['transfer-encoding'] !== undefined) return;
  const chunks: Buffer[] = [];
  try {
    for await (const chunk of incoming) chunks.push(chunk as Buffer);
  } catch {
    return;
  }
  incoming.rawBody = Buffer.concat(chunks);
}
