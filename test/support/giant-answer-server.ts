import { once } from 'node:events';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** How much of an answer the server got out before the client stopped reading. */
export interface AnswerWrite {
  tool: string;
  /** Bytes of the answer the server wrote (accepted by its socket). */
  written: number;
  /** Whether it wrote the whole answer; false when the client closed the connection first. */
  complete: boolean;
  /** Whether the server is done with the call (all written, or the client gone). */
  done: boolean;
}

/** A tool of the server and how it answers: one JSON body, or an event stream of these events. */
export interface GiantTool {
  name: string;
  /** `json`: one JSON-RPC answer whose text is `textBytes` long. `events`: a notification per `noticeBytes`, then the answer. */
  answer: 'json' | 'events';
  textBytes: number;
  noticeBytes?: number[];
}

const FILL = Buffer.alloc(64 * 1024, 'x');

async function readJson(req: IncomingMessage): Promise<{ id?: number | string; method?: string; params?: { name?: string } }> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  try {
    return JSON.parse(Buffer.concat(chunks).toString('utf8'));
  } catch {
    return {};
  }
}

/**
 * Writes `head`, `fill` bytes of `x` in chunks of 64 KiB (waiting while the socket is full), then
 * `tail`: the JSON or event text around a giant string. False when the client closed the
 * connection before all of it was written.
 */
async function writeAround(res: ServerResponse, write: AnswerWrite, head: string, fill: number, tail: string): Promise<boolean> {
  const closed = once(res, 'close');
  const put = async (chunk: Buffer | string) => {
    if (res.destroyed) return false;
    write.written += Buffer.byteLength(chunk);
    if (!res.write(chunk)) await Promise.race([once(res, 'drain'), closed]);
    return !res.destroyed;
  };
  if (!(await put(head))) return false;
  for (let left = fill; left > 0; left -= FILL.length) {
    if (!(await put(left >= FILL.length ? FILL : FILL.subarray(0, left)))) return false;
  }
  return put(tail);
}

/** The text of a JSON-RPC message, split where its giant string goes. */
function around(message: unknown): [string, string] {
  const [head, tail] = JSON.stringify(message).split('@');
  return [head ?? '', tail ?? ''];
}

async function writeAnswer(res: ServerResponse, tool: GiantTool, id: number | string | undefined, write: AnswerWrite): Promise<boolean> {
  const [head, tail] = around({ jsonrpc: '2.0', id, result: { content: [{ type: 'text', text: '@' }] } });
  if (tool.answer === 'json') {
    res.writeHead(200, { 'content-type': 'application/json' });
    return writeAround(res, write, head, tool.textBytes, tail);
  }
  res.writeHead(200, { 'content-type': 'text/event-stream' });
  for (const bytes of tool.noticeBytes ?? []) {
    const [noticeHead, noticeTail] = around({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: '@' } });
    if (!(await writeAround(res, write, `event: message\ndata: ${noticeHead}`, bytes, `${noticeTail}\n\n`))) return false;
  }
  // The answer's lines end with CRLF, as a server may send them.
  return writeAround(res, write, `event: message\r\ndata: ${head}`, tool.textBytes, `${tail}\r\n\r\n`);
}

/**
 * A tool server (streamable HTTP, stateless, written by hand) whose tools answer as much as they
 * are told: a JSON body or an event stream, written in 64 KiB chunks as the client reads them
 * (with `listBytes`, its tools/list answer too). It records, for each call (tool `tools/list` for
 * the list), how much it wrote and whether the client took it all.
 */
export async function startGiantAnswerServer(tools: GiantTool[], options: { listBytes?: number } = {}) {
  const writes: AnswerWrite[] = [];
  const http = createServer(async (req, res) => {
    if (req.method !== 'POST') {
      res.writeHead(405, { allow: 'POST' }).end();
      return;
    }
    const message = await readJson(req);
    if (message.id === undefined) {
      res.writeHead(202).end();
      return;
    }
    const json = (result: unknown) =>
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ jsonrpc: '2.0', id: message.id, result }));
    if (message.method === 'initialize') {
      const version = (message.params as { protocolVersion?: string } | undefined)?.protocolVersion;
      return json({ protocolVersion: version, capabilities: { tools: {} }, serverInfo: { name: 'giant-answers', version: '1.0.0' } });
    }
    if (message.method === 'tools/list' && options.listBytes) {
      // One tool whose description is `listBytes` long.
      const write: AnswerWrite = { tool: 'tools/list', written: 0, complete: false, done: false };
      writes.push(write);
      const tool = { name: 'wordy', inputSchema: { type: 'object', properties: {} }, description: '@' };
      const [head, tail] = around({ jsonrpc: '2.0', id: message.id, result: { tools: [tool] } });
      res.writeHead(200, { 'content-type': 'application/json' });
      if (await writeAround(res, write, head, options.listBytes, tail)) {
        res.end();
        await once(res, 'finish');
        write.complete = true;
      }
      write.done = true;
      return;
    }
    if (message.method === 'tools/list') {
      return json({
        tools: tools.map((tool) => ({
          name: tool.name,
          description: `Answers ${tool.textBytes} bytes`,
          inputSchema: { type: 'object', properties: {} },
          annotations: { readOnlyHint: true },
        })),
      });
    }
    const tool = tools.find((each) => each.name === message.params?.name);
    if (message.method !== 'tools/call' || !tool) {
      res
        .writeHead(200, { 'content-type': 'application/json' })
        .end(JSON.stringify({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'no' } }));
      return;
    }
    const write: AnswerWrite = { tool: tool.name, written: 0, complete: false, done: false };
    writes.push(write);
    if (await writeAnswer(res, tool, message.id, write)) {
      res.end();
      await once(res, 'finish');
      write.complete = true;
    }
    write.done = true;
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(http.address() as AddressInfo).port}/mcp`,
    writes,
    /** The write of the last call of `tool`, once the server is done with it (waits up to 5 s). */
    async lastWrite(tool: string): Promise<AnswerWrite | undefined> {
      for (let waited = 0; waited < 250; waited += 1) {
        const write = writes.findLast((each) => each.tool === tool);
        if (write?.done) return write;
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
      return writes.findLast((each) => each.tool === tool);
    },
    stop: () => {
      http.closeAllConnections();
      return new Promise<void>((resolve) => http.close(() => resolve()));
    },
  };
}
