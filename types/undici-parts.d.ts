/**
 * The two parts of undici the MCP transports use (shared/connections/url-policy.ts), imported by
 * their own paths so a bundle does not take the rest of undici (mock agents, caches, WebSocket,
 * proxies…). undici types only its package entry, whose types these are.
 */
declare module 'undici/lib/dispatcher/agent.js' {
  import type { Agent } from 'undici';

  const AgentClass: typeof Agent;
  export default AgentClass;
}

declare module 'undici/lib/web/fetch/index.js' {
  export { fetch } from 'undici';
}
