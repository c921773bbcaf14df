/*
 * The MCP gateway's authorization server (docs/mcp-gateway.md): people sign in to MCP clients as
 * themselves (OAuth 2.1 through oidc-provider). The MCP endpoint's token check (`@public ./access.js`)
 * and addresses (`@public ./resources.js`) are imported by the request wiring on their own: the agent's
 * bundle carries neither the provider nor its routes.
 */
export { oauthProtocolRoutes } from './protocol-routes.js';
export { oauthRoutes } from './routes.js';
