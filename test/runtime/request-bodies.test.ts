import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startLocalRuntime, type LocalRuntime } from '../../bin/local-runtime.js';
import { parseConfig } from '../../shared/platform/config.js';
import { FAST_SCRYPT } from '../support/context.js';
import { RecordingLogger } from '../support/logger.js';
import { signUpOver } from '../support/signup.js';

/**
 * Request bodies as the local runtime reads them (bin/request-body.ts): one that declares its
 * length is read before the app runs and handed to Hono as it is; one sent in chunks goes the
 * app's own way. Both answer the same, limits and errors included.
 */

let runtime: LocalRuntime;
let cookie: string;

beforeAll(async () => {
  const config = parseConfig({ DATA_DIR: 'memory', PORT: '0', LOG_LEVEL: 'SILENT' }, 'local');
  runtime = await startLocalRuntime(config, { logger: new RecordingLogger(), scrypt: FAST_SCRYPT });
  cookie = await signUpOver(runtime.url, 'bodies@example.com');
});

afterAll(async () => {
  await runtime.stop();
});

/** A body sent in chunks, without a declared length (`transfer-encoding: chunked`). */
function chunked(text: string | Uint8Array): ReadableStream<Uint8Array> {
  const bytes = typeof text === 'string' ? new TextEncoder().encode(text) : text;
  return new ReadableStream({
    start(controller) {
      for (let at = 0; at < bytes.length; at += 64 * 1024) controller.enqueue(bytes.subarray(at, at + 64 * 1024));
      controller.close();
    },
  });
}

async function post(body: string | Uint8Array, { inChunks = false, type = 'application/json', signedIn = true } = {}) {
  const response = await fetch(`${runtime.url}/api/workspaces`, {
    method: 'POST',
    headers: { 'content-type': type, ...(signedIn ? { cookie } : {}) },
    body: inChunks ? chunked(body) : body,
    ...(inChunks ? { duplex: 'half' } : {}),
  } as RequestInit);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

describe('request bodies in the local runtime', () => {
  for (const inChunks of [false, true]) {
    const how = inChunks ? 'sent in chunks' : 'with a declared length';
    it(`reads a JSON body ${how}`, async () => {
      const name = `Bodies é ✓ 𝄞 ${how}`;
      const created = await post(JSON.stringify({ name }), { inChunks });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ name });
    });

    it(`reads a JSON body that starts with a byte-order mark ${how}, as Request.text() does`, async () => {
      const name = `Marked ${how}`;
      const bytes = new Uint8Array([0xef, 0xbb, 0xbf, ...new TextEncoder().encode(JSON.stringify({ name }))]);
      const created = await post(bytes, { inChunks });
      expect(created.status, JSON.stringify(created.body)).toBe(201);
      expect(created.body).toMatchObject({ name });
    });

    it(`answers 400 with details to malformed JSON ${how}, 415 to another type, 401 to a caller not signed in`, async () => {
      const malformed = await post('{"name": ', { inChunks });
      expect(malformed.status).toBe(400);
      expect(malformed.body).toHaveProperty('error');
      expect(malformed.body).toHaveProperty('details');
      expect((await post('name=x', { inChunks, type: 'application/x-www-form-urlencoded' })).status).toBe(415);
      expect((await post(JSON.stringify({ name: 'Nobody' }), { inChunks, signedIn: false })).status).toBe(401);
    });

    it(`refuses a body over 1 MiB ${how} with 413`, async () => {
      const tooLarge = await post(JSON.stringify({ name: 'Large', system_prompt: 'x'.repeat(1024 * 1024) }), { inChunks });
      expect(tooLarge.status).toBe(413);
      expect(tooLarge.body).toHaveProperty('error');
    });
  }
});
