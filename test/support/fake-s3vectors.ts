import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/*
 * Amazon S3 Vectors on loopback, as the AWS SDK speaks to it (REST-JSON, `POST /<Operation>`): the
 * operations the service uses (CreateIndex, PutVectors, QueryVectors, DeleteVectors) with their
 * errors (ConflictException, NotFoundException, ValidationException) and limits (500 vectors a
 * call, topK up to 30, cosine distance, no zero vectors).
 */

interface FakeIndex {
  dimension: number;
  vectors: Map<string, number[]>;
}

export interface FakeS3Vectors {
  endpoint: string;
  /** The indexes by ARN (`<bucket ARN>/index/<name>`). */
  indexes: Map<string, FakeIndex>;
  /** The operations asked, in order. */
  calls: string[];
  close(): Promise<void>;
}

function error(res: ServerResponse, status: number, type: string, message: string) {
  res.writeHead(status, { 'content-type': 'application/json', 'x-amzn-errortype': type }).end(JSON.stringify({ message }));
}

async function bodyOf(req: IncomingMessage): Promise<any> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return chunks.length ? JSON.parse(Buffer.concat(chunks).toString('utf8')) : {};
}

function cosineDistance(a: number[], b: number[]): number {
  let [dot, na, nb] = [0, 0, 0];
  for (let i = 0; i < a.length; i += 1) {
    dot += (a[i] as number) * (b[i] as number);
    na += (a[i] as number) ** 2;
    nb += (b[i] as number) ** 2;
  }
  return 1 - dot / Math.sqrt(na * nb);
}

export async function startFakeS3Vectors(): Promise<FakeS3Vectors> {
  const indexes = new Map<string, FakeIndex>();
  const calls: string[] = [];
  const server = createServer(async (req, res) => {
    const operation = (req.url ?? '').replace(/^\//, '').split('?')[0] as string;
    const body = await bodyOf(req);
    calls.push(operation);
    // An index is named by its ARN, or by its bucket (ARN or name) and its name.
    const name = body.indexArn ?? `${body.vectorBucketArn ?? body.vectorBucketName}/index/${body.indexName}`;
    const index = indexes.get(name);
    const json = (answer: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(answer));
    if (operation === 'CreateIndex') {
      if (index) return error(res, 409, 'ConflictException', 'the index exists');
      if (body.distanceMetric !== 'cosine' || body.dataType !== 'float32') return error(res, 400, 'ValidationException', 'bad index');
      indexes.set(name, { dimension: body.dimension, vectors: new Map() });
      return json({});
    }
    if (!index) return error(res, 404, 'NotFoundException', 'no such index');
    if (operation === 'PutVectors') {
      if (body.vectors.length > 500) return error(res, 400, 'ValidationException', 'at most 500 vectors');
      for (const vector of body.vectors) {
        const data = vector.data.float32 as number[];
        if (data.length !== index.dimension || data.every((value) => value === 0))
          return error(res, 400, 'ValidationException', 'bad vector');
        index.vectors.set(vector.key, data);
      }
      return json({});
    }
    if (operation === 'DeleteVectors') {
      if (body.keys.length > 500) return error(res, 400, 'ValidationException', 'at most 500 keys');
      for (const key of body.keys) index.vectors.delete(key);
      return json({});
    }
    if (operation === 'QueryVectors') {
      if (body.topK > 30 || body.topK < 1) return error(res, 400, 'ValidationException', 'topK is 1 to 30');
      const query = body.queryVector.float32 as number[];
      const hits = [...index.vectors].map(([key, data]) => ({ key, distance: cosineDistance(query, data) }));
      hits.sort((a, b) => a.distance - b.distance);
      return json({
        distanceMetric: 'cosine',
        vectors: hits.slice(0, body.topK).map((hit) => (body.returnDistance ? hit : { key: hit.key })),
      });
    }
    error(res, 400, 'ValidationException', `unknown operation ${operation}`);
  });
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const { port } = server.address() as AddressInfo;
  return {
    endpoint: `http://127.0.0.1:${port}`,
    indexes,
    calls,
    async close() {
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
