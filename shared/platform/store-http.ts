import { createHash, createHmac } from 'node:crypto';
import http from 'node:http';
import https from 'node:https';
import type { AwsCredentialIdentity, AwsCredentialIdentityProvider, SourceData } from '@smithy/types';
import { SignatureV4 } from '@smithy/signature-v4';
import { once } from './once.js';
import { jitteredBackoff, withTimeout } from './timing.js';

/*
 * DynamoDB's JSON protocol over keep-alive HTTP: one signed POST per call, `X-Amz-Target` naming
 * the operation. This is the whole of what `Table` needs of a DynamoDB client. The AWS SDK's
 * client did the same through about twenty middlewares (endpoint rules, schema serde, user agent,
 * retry strategy, …) and cost 0.55–0.9 ms of CPU per call on this service's routes against
 * 0.22–0.35 ms here (docs/api-decisions.md). The hard parts stay the SDK's own: SigV4 signing
 * (`@smithy/signature-v4`), the credential chain (`@aws-sdk/credential-provider-node`, loaded on
 * first use, only on AWS), and marshalling (`@aws-sdk/util-dynamodb`, in `table-codec.ts`).
 */

/** What the store answered instead of a result: its error type (`ConditionalCheckFailedException`, …) as `name`. */
export class StoreError extends Error {
  constructor(
    name: string,
    message: string,
    readonly status: number,
    readonly retryable: boolean,
  ) {
    super(message);
    this.name = name;
  }
}

/** Error types DynamoDB answers for a call that may succeed if sent again after a pause. */
const THROTTLED = new Set([
  'ProvisionedThroughputExceededException',
  'ThrottlingException',
  'RequestLimitExceeded',
  'TransactionConflictException',
]);

/** Attempts per call (the first and two retries), as many as the SDK's standard retry mode. */
const MAX_ATTEMPTS = 3;
/** A call that has sent nothing back for this long is abandoned (a read is sent again, a write fails). */
const REQUEST_TIMEOUT_MS = 5_000;
/** Operations that change nothing: one that timed out may be sent again. */
const READS = new Set(['GetItem', 'BatchGetItem', 'Query', 'DescribeTable']);

/** node:crypto's SHA-256 in the shape the signer takes (the SDK's own Node hash does the same). */
class Sha256 {
  private readonly hash;
  constructor(secret?: SourceData) {
    this.hash = secret ? createHmac('sha256', bytesOf(secret)) : createHash('sha256');
  }
  update(data: SourceData): void {
    this.hash.update(bytesOf(data));
  }
  async digest(): Promise<Uint8Array> {
    return new Uint8Array(this.hash.digest());
  }
}

function bytesOf(data: SourceData): string | Uint8Array {
  if (typeof data === 'string') return data;
  return ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength) : new Uint8Array(data);
}

/**
 * Carries one call to a store in this process instead of over HTTP (the embedded store): the
 * operation and its input in, the store's status and answer out, as objects: what the wire would
 * carry as JSON, without writing and reading it. The store keeps neither object (the embedded
 * store acts on its own copy of the input, after deleting its null and unknown fields, and
 * answers what it read from its database); the client sends each input once and reads answers.
 */
export type StoreTransport = (operation: string, input: object) => Promise<{ status: number; answer: unknown }>;

/** Where the store is and who signs: an endpoint (local store, placeholder credentials) or AWS's (the default chain). */
export interface StoreEndpoint {
  region: string;
  /** The local or embedded store; absent on AWS. */
  endpoint?: string;
  /**
   * Who signs: placeholder credentials (a local store does not check them) or the AWS SDK's
   * credential chain. By default the placeholder with an endpoint, the chain without one.
   */
  credentials?: 'placeholder' | 'chain';
  /** How long a call may send nothing back (default `REQUEST_TIMEOUT_MS`). */
  timeoutMs?: number;
  /** A store in this process (the embedded one): calls go to it unsigned, not over HTTP. */
  transport?: StoreTransport;
  /** Wraps each call (a trace span); the default sends it as it is. */
  around?: <T>(operation: string, input: object, send: () => Promise<T>) => Promise<T>;
}

/** The credential chain of the AWS SDK (environment, container, profile, …), loaded on first use. */
const defaultCredentials = once(async (): Promise<AwsCredentialIdentityProvider> => {
  const { defaultProvider } = await import('@aws-sdk/credential-provider-node');
  return defaultProvider();
});

/** A DynamoDB client: `send(operation, input)` answers the operation's JSON output or throws `StoreError`. */
export class DynamoClient {
  private readonly url: URL;
  /** `node:http` or `node:https`, by the endpoint's scheme. */
  private readonly protocol: typeof http | typeof https;
  private readonly agent: http.Agent;
  private readonly signer: SignatureV4;
  private readonly around: NonNullable<StoreEndpoint['around']>;
  private readonly timeoutMs: number;
  /** The store in this process, when it is there. */
  private readonly inProcess?: StoreTransport;

  constructor(options: StoreEndpoint) {
    this.url = new URL(options.endpoint ?? `https://dynamodb.${options.region}.amazonaws.com`);
    this.protocol = this.url.protocol === 'https:' ? https : http;
    this.agent = new this.protocol.Agent({ keepAlive: true, maxSockets: 50 });
    const local: AwsCredentialIdentity = { accessKeyId: 'local', secretAccessKey: 'local' };
    this.signer = new SignatureV4({
      service: 'dynamodb',
      region: options.region,
      sha256: Sha256,
      // The embedded or local store does not check signatures: placeholder credentials there.
      credentials:
        (options.credentials ?? (options.endpoint ? 'placeholder' : 'chain')) === 'placeholder'
          ? local
          : async () => (await defaultCredentials())(),
    });
    this.around = options.around ?? ((_operation, _input, send) => send());
    this.timeoutMs = options.timeoutMs ?? REQUEST_TIMEOUT_MS;
    this.inProcess = options.transport;
  }

  async send<T = Record<string, unknown>>(operation: string, input: object): Promise<T> {
    return this.around(operation, input, async () => {
      const { inProcess } = this;
      // Over HTTP the body is written once, for every attempt.
      const body = inProcess ? '' : JSON.stringify(input);
      for (let attempt = 1; ; attempt += 1) {
        try {
          return (await (inProcess ? this.call(inProcess, operation, input) : this.post(operation, body, attempt))) as T;
        } catch (error) {
          if (attempt >= MAX_ATTEMPTS || !retryable(error, operation)) throw error;
          // Full jitter on an exponential ceiling (50, 100 ms): callers throttled together spread out.
          await jitteredBackoff(attempt);
        }
      }
    });
  }

  /** One call to the store in this process. */
  private async call(inProcess: StoreTransport, operation: string, input: object): Promise<unknown> {
    const { status, answer } = await withTimeout(inProcess(operation, input), this.timeoutMs, () => this.stalled());
    if (status === 200) return answer ?? {};
    throw storeError(status, answer);
  }

  /** One call over HTTP. */
  private async post(operation: string, body: string, attempt: number): Promise<unknown> {
    const { status, text } = await this.overHttp(operation, body, attempt);
    if (status === 200) return text ? JSON.parse(text) : {};
    throw storeError(status, parsedError(text));
  }

  /** One signed POST to the endpoint. */
  private async overHttp(operation: string, body: string, attempt: number) {
    const { hostname, port, host, protocol } = this.url;
    const signed = await this.signer.sign({
      method: 'POST',
      protocol,
      hostname,
      port: port ? Number(port) : undefined,
      path: '/',
      query: {},
      headers: {
        host,
        'content-type': 'application/x-amz-json-1.0',
        'x-amz-target': `DynamoDB_20120810.${operation}`,
        // The attempt, as the SDK tells it (and signs it): a retry is visible to the store's logs.
        'amz-sdk-request': `attempt=${attempt}; max=${MAX_ATTEMPTS}`,
      },
      body,
    });
    const headers = { ...signed.headers, 'content-length': String(Buffer.byteLength(body)) };
    return this.exchange({ hostname, port, headers }, body);
  }

  private exchange(target: { hostname: string; port: string; headers: Record<string, string> }, body: string) {
    return new Promise<{ status: number; text: string }>((resolve, reject) => {
      const request = this.protocol.request(
        {
          agent: this.agent,
          hostname: target.hostname,
          port: target.port || undefined,
          method: 'POST',
          path: '/',
          headers: target.headers,
        },
        (response) => {
          const chunks: Buffer[] = [];
          response.on('data', (chunk: Buffer) => chunks.push(chunk));
          response.on('end', () => resolve({ status: response.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }));
          response.on('error', reject);
        },
      );
      request.setTimeout(this.timeoutMs, () => request.destroy(this.stalled()));
      request.on('error', reject);
      request.end(body);
    });
  }

  /** A call the store sent nothing back for within the time limit (in process or over HTTP). */
  private stalled(): StoreError {
    return new StoreError('TimeoutError', `the store sent nothing for ${this.timeoutMs} ms`, 0, true);
  }

  /** Closes the kept-alive connections (the process is stopping). */
  destroy(): void {
    this.agent.destroy();
  }
}

/** An error answer's JSON, or nothing when it is not JSON (a proxy's page). */
function parsedError(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The store's error answer as a `StoreError`: its type after the `#` (`com.amazonaws.dynamodb.v20120810#…`) and message. */
function storeError(status: number, answer: unknown): StoreError {
  // Not an object (not JSON at all): named by its status below.
  const parsed = (typeof answer === 'object' && answer !== null ? answer : {}) as {
    __type?: unknown;
    message?: unknown;
    Message?: unknown;
  };
  const type = typeof parsed.__type === 'string' ? (parsed.__type.split('#').pop() ?? '') : '';
  const name = type || (status >= 500 ? 'InternalServerError' : 'UnknownError');
  const message = String(parsed.message ?? parsed.Message ?? `the store answered HTTP ${status}`);
  return new StoreError(name, message, status, status >= 500 || THROTTLED.has(name));
}

/**
 * A failed call worth sending again: the store's transient errors, a connection that broke or was
 * refused, or a read that stalled. A write that stalled may have been applied (an `ADD` would
 * count twice), so it fails instead.
 */
function retryable(error: unknown, operation: string): boolean {
  if (error instanceof StoreError) return error.name === 'TimeoutError' ? READS.has(operation) : error.retryable;
  const code = (error as NodeJS.ErrnoException).code;
  return code === 'ECONNRESET' || code === 'EPIPE' || code === 'ECONNREFUSED' || code === 'ETIMEDOUT';
}
