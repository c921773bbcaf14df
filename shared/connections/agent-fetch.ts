import type { LookupFunction } from 'node:net';
import type { RequestInit as UndiciRequestInit } from 'undici';
// undici's agent and fetch by their own paths: its package entry would also bring its mock agents,
// caches, WebSocket and proxy agents into the Lambda bundles (200 KB minified).
import Agent from 'undici/lib/dispatcher/agent.js';
import { fetch as undiciFetch } from 'undici/lib/web/fetch/index.js';

/*
 * undici's HTTP agent and fetch: what the MCP transports' requests go through, so that the
 * addresses a socket connects to pass the URL policy's lookup. 330 KB of the Lambda bundles (its
 * HTTP parser is WebAssembly), so `url-policy.ts` loads this file on the first request to a tool
 * server, not at a cold start.
 */

/** A fetch whose connections resolve host names with `lookup`, and closes them on `close`. */
export function createAgentFetch(lookup: LookupFunction) {
  const agent = new Agent({ connect: { lookup } });
  return {
    fetch: (url: URL, init: RequestInit) => undiciFetch(url, { ...(init as UndiciRequestInit), dispatcher: agent }),
    close: () => agent.close(),
  };
}

export type AgentFetch = ReturnType<typeof createAgentFetch>;
