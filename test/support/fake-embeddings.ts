import { once } from 'node:events';
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * A faithful OpenAI-compatible embeddings API on loopback (`POST /v1/embeddings`, as OpenAI and
 * Ollama answer it) whose "model" knows a few synonyms: words of one group share a dimension, any
 * other word falls in a dimension by its digest. So a question that says "physician" is near a
 * passage that says "doctor", which full text alone does not find: what a real model does, small.
 */

const DIMENSIONS = 64;

/** Words that mean the same to the fake model. */
const SYNONYMS = [
  ['doctor', 'physician', 'clinician', 'gp'],
  ['holiday', 'vacation', 'leave', 'pto', 'time-off'],
  ['salary', 'pay', 'wage', 'compensation', 'payroll'],
  ['laptop', 'computer', 'notebook', 'workstation'],
  ['car', 'automobile', 'vehicle'],
];

/** Words that say little of what a text is about: the fake model, like a real one, hardly weighs them. */
const FUNCTION_WORDS = new Set([
  'a',
  'an',
  'the',
  'of',
  'to',
  'in',
  'on',
  'and',
  'or',
  'is',
  'are',
  'i',
  'how',
  'can',
  'do',
  'what',
  'with',
  'by',
  'at',
  'their',
  'any',
  'for',
]);

const conceptOf = new Map(SYNONYMS.flatMap((group, i) => group.map((word) => [word, i] as const)));

function dimensionOf(word: string): number {
  const concept = conceptOf.get(word) ?? conceptOf.get(word.replace(/s$/, ''));
  if (concept !== undefined) return concept;
  return SYNONYMS.length + (createHash('sha256').update(word).digest().readUInt32BE(0) % (DIMENSIONS - SYNONYMS.length));
}

/** The fake model's vector of `text` (not normalised: the service must normalise what it gets). */
function fakeEmbedding(text: string): number[] {
  const vector: number[] = new Array<number>(DIMENSIONS).fill(0);
  for (const word of text.toLowerCase().match(/[a-z0-9-]+/g) ?? []) {
    if (!FUNCTION_WORDS.has(word)) vector[dimensionOf(word)] = (vector[dimensionOf(word)] as number) + 1;
  }
  if (!vector.some((value) => value !== 0)) vector[DIMENSIONS - 1] = 1;
  return vector;
}

interface EmbeddingRequest {
  model: string;
  input: string[];
  authorization: string | undefined;
}

export interface FakeEmbeddings {
  /** The base URL to configure (`EMBEDDINGS_BASE_URL`), ending in `/v1`. */
  baseUrl: string;
  requests: EmbeddingRequest[];
  /** Makes the next `n` requests fail with this HTTP status (500: the SDK retries it). */
  failNext(n: number, status?: number): void;
  close(): Promise<void>;
}

async function bodyOf(req: IncomingMessage): Promise<unknown> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return JSON.parse(Buffer.concat(chunks).toString('utf8'));
}

function send(res: ServerResponse, status: number, body: unknown) {
  res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify(body));
}

/** Starts the fake API on 127.0.0.1; `apiKey`, when given, is required as the bearer token. */
export async function startFakeEmbeddings(options: { apiKey?: string } = {}): Promise<FakeEmbeddings> {
  const requests: EmbeddingRequest[] = [];
  let failing = { left: 0, status: 500 };
  const server = createServer(async (req, res) => {
    if (req.method !== 'POST' || req.url !== '/v1/embeddings')
      return send(res, 404, { error: { message: 'not found', type: 'invalid_request_error' } });
    const body = (await bodyOf(req).catch(() => undefined)) as { model?: string; input?: string | string[] } | undefined;
    const authorization = req.headers.authorization;
    if (options.apiKey && authorization !== `Bearer ${options.apiKey}`) {
      return send(res, 401, { error: { message: 'Incorrect API key provided', type: 'invalid_request_error', code: 'invalid_api_key' } });
    }
    if (!body?.model || body.input === undefined)
      return send(res, 400, { error: { message: "'model' and 'input' are required", type: 'invalid_request_error' } });
    const input = Array.isArray(body.input) ? body.input : [body.input];
    requests.push({ model: body.model, input, authorization });
    if (failing.left > 0) {
      failing.left -= 1;
      return send(res, failing.status, { error: { message: 'the model is overloaded', type: 'server_error' } });
    }
    send(res, 200, {
      object: 'list',
      model: body.model,
      data: input.map((text, index) => ({ object: 'embedding', index, embedding: fakeEmbedding(text) })),
      usage: { prompt_tokens: input.join(' ').length, total_tokens: input.join(' ').length },
    });
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}/v1`,
    requests,
    failNext(n, status = 500) {
      failing = { left: n, status };
    },
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
