import { createRequire } from 'node:module';
import type { StoreTransport } from '../shared/platform/store-http.js';
import { memoizeDynaliteParsers } from './embedded-store-parse.js';
import { bufferWrites, type LevelDb } from './embedded-store-writes.js';

/*
 * The embedded store: dynalite's own database, validations and actions, called in this process.
 * dynalite is an HTTP server; `npm start` used to listen on a loopback port and send it every call
 * as a signed HTTP request from the same thread, which cost both sides of an HTTP exchange, a
 * signature and a CRC per call (docs/api-decisions.md, "The embedded store"). Here the call's
 * input goes straight to what dynalite's request handler does after it has parsed a request: check
 * the types, run the validations, run the action. The answer is the object the wire would carry as
 * JSON, so the client above (`DynamoClient`) reads it as it reads a response, without the JSON.
 */

const require = createRequire(import.meta.url);

interface DynaliteError {
  statusCode?: number;
  body?: unknown;
}
type Callback = (error: (Error & DynaliteError) | null, result?: unknown) => void;
interface DynaliteStore {
  db: LevelDb;
  lifecycleManager: { gracefulClose(callback: (error?: Error | null) => void): void };
}
interface ActionValidation {
  types: Record<string, unknown>;
  custom?: unknown;
}

const db = require('dynalite/db/index.js') as { create(options: object): DynaliteStore };
const validations = require('dynalite/validations/index.js') as {
  checkTypes(data: unknown, types: Record<string, unknown>): Record<string, unknown>;
  checkValidations(data: unknown, types: Record<string, unknown>, custom: unknown, store: DynaliteStore): void;
};

/** Every operation dynalite answers (its `validOperations`). */
const OPERATIONS = [
  'BatchGetItem',
  'BatchWriteItem',
  'CreateTable',
  'DeleteItem',
  'DeleteTable',
  'DescribeTable',
  'DescribeTimeToLive',
  'GetItem',
  'ListTables',
  'ListTagsOfResource',
  'PutItem',
  'Query',
  'Scan',
  'TagResource',
  'UntagResource',
  'UpdateItem',
  'UpdateTable',
] as const;

const handlers = new Map(
  OPERATIONS.map((operation) => {
    const name = operation.charAt(0).toLowerCase() + operation.slice(1);
    const action = require(`dynalite/actions/${name}.js`) as (store: DynaliteStore, data: unknown, callback: Callback) => void;
    const validation = require(`dynalite/validations/${name}.js`) as ActionValidation;
    return [operation, { action, validation }] as const;
  }),
);

/** dynalite's error answer (a status and its body), or none for an error it did not mean to answer. */
function answerOf(error: unknown): { status: number; answer: unknown } | undefined {
  const { statusCode, body } = (error ?? {}) as DynaliteError;
  return statusCode ? { status: statusCode, answer: body } : undefined;
}

export interface EmbeddedStore {
  transport: StoreTransport;
  close(): Promise<void>;
}

/** dynalite's database in this process: persisted under `dir`, or in memory when `dir` is null. */
export function openEmbeddedStore(dir: string | null): EmbeddedStore {
  memoizeDynaliteParsers();
  const store = db.create({ path: dir ?? undefined, createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  const writes = bufferWrites(store.db);
  const transport: StoreTransport = async (operation, input) => {
    const handler = handlers.get(operation as (typeof OPERATIONS)[number]);
    if (!handler) return { status: 400, answer: { __type: 'com.amazon.coral.service#UnknownOperationException' } };
    const mark = writes.mark();
    let data: Record<string, unknown>;
    try {
      // checkTypes builds the call dynalite acts on, a copy of the input; it first deletes the
      // input's null and unknown fields, at every level (a retry sends the same, cleaned input).
      data = validations.checkTypes(input, handler.validation.types);
      validations.checkValidations(data, handler.validation.types, handler.validation.custom, store);
    } catch (error) {
      const answer = answerOf(error);
      if (answer) return answer;
      throw error;
    }
    const answered = await new Promise<{ status: number; answer: unknown }>((resolve, reject) => {
      handler.action(store, data, (error, result) => {
        if (!error) return resolve({ status: 200, answer: result });
        const answer = answerOf(error);
        return answer ? resolve(answer) : reject(error);
      });
    });
    // Answered once what it wrote is in leveldb (bin/embedded-store-writes.ts).
    await writes.written(mark);
    return answered;
  };
  return {
    transport,
    close: async () => {
      // The writes still on their way first (a refused batch was already told to its callers).
      await writes.written(writes.mark()).catch(() => undefined);
      await new Promise<void>((resolve, reject) => store.lifecycleManager.gracefulClose((error) => (error ? reject(error) : resolve())));
    },
  };
}
