import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { OAuthRegisteredClientsStore } from '@modelcontextprotocol/sdk/server/auth/clients.js';
import {
  AccessDeniedError,
  InvalidGrantError,
  InvalidScopeError,
  InvalidTargetError,
  InvalidTokenError,
} from '@modelcontextprotocol/sdk/server/auth/errors.js';
import { requireBearerAuth } from '@modelcontextprotocol/sdk/server/auth/middleware/bearerAuth.js';
import type { AuthorizationParams, OAuthServerProvider } from '@modelcontextprotocol/sdk/server/auth/provider.js';
import {
  createOAuthMetadata,
  getOAuthProtectedResourceMetadataUrl,
  mcpAuthMetadataRouter,
  mcpAuthRouter,
} from '@modelcontextprotocol/sdk/server/auth/router.js';
import type { AuthInfo } from '@modelcontextprotocol/sdk/server/auth/types.js';
import { createMcpExpressApp } from '@modelcontextprotocol/sdk/server/express.js';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import type { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { OAuthClientInformationFull, OAuthTokenRevocationRequest, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { z } from 'zod';
import { openSession, standardTools, type TestTool } from './mcp-servers.js';
import { wallClock } from './clock.js';

/** The scope the protected MCP endpoint requires (granted when the client asks for none). */
const SCOPE = 'mcp:tools';
/** How `login()` tells the authorization endpoint who is logged in (a browser would carry a session cookie). */
const USER_HEADER = 'x-test-user';
const CODE_TTL_MS = 60_000;

type AuthorizeResponse = Parameters<OAuthServerProvider['authorize']>[2];

interface IssuedToken {
  user: string;
  clientId: string;
  grant: 'authorization_code' | 'refresh_token';
  /** The RFC 8707 resource the token is bound to. */
  resource: string | undefined;
  scopes: string[];
  accessToken: string;
  refreshToken: string;
}

interface ToolCall {
  tool: string;
  user: string;
  clientId: string;
  args: Record<string, unknown>;
}

interface Grant {
  user: string;
  clientId: string;
  scopes: string[];
  resource: URL | undefined;
}

/**
 * An in-memory authorization server behind the SDK's `mcpAuthRouter`: dynamic client registration,
 * authorization code + PKCE (S256, checked by the SDK's token handler), RFC 8707 resource indicators
 * (required, and must name the MCP endpoint), rotating refresh tokens, expiring access tokens.
 */
class InMemoryAuthServer implements OAuthServerProvider {
  readonly clients = new Map<string, OAuthClientInformationFull>();
  readonly issued: IssuedToken[] = [];
  private readonly codes = new Map<string, Grant & { params: AuthorizationParams; expiresAt: number }>();
  private readonly accessTokens = new Map<string, Grant & { expiresAt: number }>();
  private readonly refreshTokens = new Map<string, Grant>();

  constructor(
    private readonly resource: URL,
    private readonly accessTokenTtlSeconds: number,
  ) {}

  get clientsStore(): OAuthRegisteredClientsStore {
    return {
      getClient: (clientId) => this.clients.get(clientId),
      registerClient: (client) => {
        // The SDK's registration handler has generated client_id (and a secret unless the client is public).
        const full = client as OAuthClientInformationFull;
        this.clients.set(full.client_id, full);
        return full;
      },
    };
  }

  async authorize(client: OAuthClientInformationFull, params: AuthorizationParams, res: AuthorizeResponse): Promise<void> {
    const user = res.req.headers[USER_HEADER];
    if (typeof user !== 'string' || !user) {
      // Nobody is logged in: a real server would show its login page here.
      res.status(200).type('html').send('<html><body><form method="post">Log in</form></body></html>');
      return;
    }
    if (user === 'denied') throw new AccessDeniedError('the user refused access');
    // The MCP authorization spec: clients MUST send the resource parameter naming the MCP server.
    if (!params.resource) throw new InvalidTargetError('the resource parameter is required');
    this.checkResource(params.resource);
    const scopes = params.scopes?.length ? params.scopes : [SCOPE];
    if (scopes.some((scope) => scope !== SCOPE)) throw new InvalidScopeError(`only ${SCOPE} is supported`);
    const code = randomBytes(16).toString('hex');
    this.codes.set(code, {
      user,
      clientId: client.client_id,
      scopes,
      resource: params.resource,
      params,
      expiresAt: wallClock.ms() + CODE_TTL_MS,
    });
    const target = new URL(params.redirectUri);
    target.searchParams.set('code', code);
    if (params.state !== undefined) target.searchParams.set('state', params.state);
    res.redirect(302, target.href);
  }

  async challengeForAuthorizationCode(client: OAuthClientInformationFull, authorizationCode: string): Promise<string> {
    return this.codeFor(client, authorizationCode).params.codeChallenge;
  }

  async exchangeAuthorizationCode(
    client: OAuthClientInformationFull,
    authorizationCode: string,
    _codeVerifier?: string,
    redirectUri?: string,
    resource?: URL,
  ): Promise<OAuthTokens> {
    const code = this.codeFor(client, authorizationCode);
    this.codes.delete(authorizationCode);
    if (redirectUri !== undefined && redirectUri !== code.params.redirectUri) throw new InvalidGrantError('redirect_uri does not match');
    if (resource) this.checkResource(resource);
    return this.issue(code, 'authorization_code');
  }

  async exchangeRefreshToken(
    client: OAuthClientInformationFull,
    refreshToken: string,
    scopes?: string[],
    resource?: URL,
  ): Promise<OAuthTokens> {
    const grant = this.refreshTokens.get(refreshToken);
    if (!grant || grant.clientId !== client.client_id) throw new InvalidGrantError('the refresh token is invalid, expired or revoked');
    if (resource) this.checkResource(resource);
    if (scopes?.some((scope) => !grant.scopes.includes(scope))) throw new InvalidScopeError('a refresh cannot widen the scope');
    // OAuth 2.1: refresh tokens of public clients rotate; this server rotates them for every client.
    this.refreshTokens.delete(refreshToken);
    return this.issue({ ...grant, scopes: scopes ?? grant.scopes }, 'refresh_token');
  }

  async verifyAccessToken(token: string): Promise<AuthInfo> {
    const grant = this.accessTokens.get(token);
    // requireBearerAuth answers 401 only for an InvalidTokenError (anything else is a 500).
    if (!grant) throw new InvalidTokenError('unknown access token');
    return {
      token,
      clientId: grant.clientId,
      scopes: grant.scopes,
      // Seconds; requireBearerAuth answers 401 "Token has expired" once it has passed.
      expiresAt: Math.floor(grant.expiresAt / 1000),
      resource: grant.resource,
      extra: { user: grant.user },
    };
  }

  async revokeToken(client: OAuthClientInformationFull, request: OAuthTokenRevocationRequest): Promise<void> {
    for (const tokens of [this.accessTokens, this.refreshTokens]) {
      if (tokens.get(request.token)?.clientId === client.client_id) tokens.delete(request.token);
    }
  }

  expireAccessTokens(): number {
    for (const grant of this.accessTokens.values()) grant.expiresAt = wallClock.ms() - 1000;
    return this.accessTokens.size;
  }

  revokeRefreshTokens(): number {
    const count = this.refreshTokens.size;
    this.refreshTokens.clear();
    return count;
  }

  private codeFor(client: OAuthClientInformationFull, authorizationCode: string) {
    const code = this.codes.get(authorizationCode);
    if (!code || code.clientId !== client.client_id || code.expiresAt < wallClock.ms()) {
      throw new InvalidGrantError('the authorization code is invalid, expired or was issued to another client');
    }
    return code;
  }

  private checkResource(resource: URL) {
    if (resource.href !== this.resource.href) throw new InvalidTargetError(`unknown resource ${resource.href}`);
  }

  private issue(grant: Grant, kind: IssuedToken['grant']): OAuthTokens {
    const accessToken = randomBytes(24).toString('hex');
    const refreshToken = randomBytes(24).toString('hex');
    this.accessTokens.set(accessToken, { ...grant, expiresAt: wallClock.ms() + this.accessTokenTtlSeconds * 1000 });
    this.refreshTokens.set(refreshToken, { ...grant });
    this.issued.push({
      user: grant.user,
      clientId: grant.clientId,
      grant: kind,
      resource: grant.resource?.href,
      scopes: grant.scopes,
      accessToken,
      refreshToken,
    });
    return {
      access_token: accessToken,
      token_type: 'Bearer',
      expires_in: this.accessTokenTtlSeconds,
      refresh_token: refreshToken,
      scope: grant.scopes.join(' '),
    };
  }
}

async function listen(): Promise<{ http: Server; origin: string }> {
  const http = createServer();
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as AddressInfo;
  return { http, origin: `http://127.0.0.1:${port}` };
}

function userOf(authInfo: AuthInfo | undefined): { user: string; clientId: string } {
  return { user: String(authInfo?.extra?.user ?? ''), clientId: authInfo?.clientId ?? '' };
}

function buildServer(tools: TestTool[], toolCalls: ToolCall[]): McpServer {
  const server = new McpServer({ name: 'oauth-test-server', version: '1.0.0' });
  server.registerTool(
    'whoami',
    { description: 'The user the access token was issued to', annotations: { readOnlyHint: true } },
    async (extra) => {
      const caller = userOf(extra.authInfo);
      toolCalls.push({ tool: 'whoami', ...caller, args: {} });
      return { content: [{ type: 'text', text: caller.user }] };
    },
  );
  for (const tool of tools) {
    server.registerTool(
      tool.name,
      {
        description: tool.description,
        inputSchema: { query: z.string().optional(), title: z.string().optional(), text: z.string().optional() },
        annotations: tool.annotations,
      },
      async (args, extra) => {
        toolCalls.push({ tool: tool.name, ...userOf(extra.authInfo), args });
        return { content: [{ type: 'text', text: await tool.run(args) }] };
      },
    );
  }
  return server;
}

/**
 * A real MCP server (MCP SDK, streamable HTTP, one session per client) protected by OAuth 2.1 as the
 * MCP authorization spec describes, on 127.0.0.1:
 *
 * - `url` (`/mcp`) sits behind the SDK's `requireBearerAuth`: without a valid token it answers 401 with
 *   `WWW-Authenticate: Bearer ..., scope="mcp:tools", resource_metadata="<origin>/.well-known/oauth-protected-resource/mcp"`,
 *   and tokens must be bound (RFC 8707) to `url`;
 * - the authorization server (SDK `mcpAuthRouter`: `/.well-known/oauth-authorization-server`, `/register`,
 *   `/authorize`, `/token`, `/revoke`) is on the same origin, or on a second port with `separateAuthServer`;
 * - `login(authorizationUrl, user)` plays the browser: it requests the authorization URL as `user` and returns
 *   the redirect `Location` (the client's redirect_uri with `code` and `state`, or with `error`) without
 *   following it. The user `denied` refuses access (error=access_denied).
 *
 * Every tool call is recorded with the user its token belonged to; the `whoami` tool answers that user.
 */
export async function startOAuthMcpServer(
  options: { tools?: TestTool[]; accessTokenTtlSeconds?: number; separateAuthServer?: boolean } = {},
) {
  const tools = options.tools ?? standardTools({ tag: 'oauth' });
  const toolCalls: ToolCall[] = [];
  const resourceServer = await listen();
  const authServer = options.separateAuthServer ? await listen() : resourceServer;
  const url = `${resourceServer.origin}/mcp`;
  const issuerUrl = new URL(`${authServer.origin}/`);
  const resourceMetadataUrl = getOAuthProtectedResourceMetadataUrl(new URL(url));
  const provider = new InMemoryAuthServer(new URL(url), options.accessTokenTtlSeconds ?? 3600);

  const authRouter = mcpAuthRouter({
    provider,
    issuerUrl,
    resourceServerUrl: new URL(url),
    scopesSupported: [SCOPE],
    resourceName: 'OAuth test MCP server',
    // Tests make many requests from one address.
    authorizationOptions: { rateLimit: false },
    tokenOptions: { rateLimit: false },
    clientRegistrationOptions: { rateLimit: false },
    revocationOptions: { rateLimit: false },
  });
  const resourceApp = createMcpExpressApp();
  if (options.separateAuthServer) {
    const authApp = createMcpExpressApp();
    authApp.use(authRouter);
    authServer.http.on('request', authApp);
    // The resource server publishes only its protected resource metadata, naming the other origin.
    resourceApp.use(
      mcpAuthMetadataRouter({
        oauthMetadata: createOAuthMetadata({ provider, issuerUrl, scopesSupported: [SCOPE] }),
        resourceServerUrl: new URL(url),
        scopesSupported: [SCOPE],
      }),
    );
  } else {
    resourceApp.use(authRouter);
  }

  const transports = new Map<string, { transport: StreamableHTTPServerTransport; user: string }>();
  const bearer = requireBearerAuth({ verifier: provider, requiredScopes: [SCOPE], resourceMetadataUrl, expectedResource: new URL(url) });
  resourceApp.all('/mcp', bearer, async (req, res) => {
    const { user } = userOf(req.auth);
    const sessionId = req.header('mcp-session-id');
    const session = sessionId ? transports.get(sessionId) : undefined;
    if (session && session.user !== user) {
      res.status(403).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session belongs to another user' }, id: null });
      return;
    }
    let transport = session?.transport;
    if (!transport) {
      if (req.method !== 'POST' || (req.body as { method?: string } | undefined)?.method !== 'initialize') {
        res.status(404).json({ jsonrpc: '2.0', error: { code: -32001, message: 'Session not found' }, id: null });
        return;
      }
      transport = await openSession(buildServer(tools, toolCalls), transports, (created) => ({ transport: created, user }));
    }
    await transport.handleRequest(req, res, req.body);
  });
  resourceServer.http.on('request', resourceApp);

  return {
    /** The protected MCP endpoint (streamable HTTP). */
    url,
    /** The authorization server's issuer (`<origin>/`), the one `authorization_servers` names. */
    issuer: issuerUrl.href,
    /** Where the protected resource metadata (RFC 9728) is served; the 401s name it. */
    resourceMetadataUrl,
    toolCalls,
    /** Fetches the authorization URL as `user` and returns the redirect Location, unfollowed. */
    async login(authorizationUrl: string | URL, user = 'alice'): Promise<string> {
      const response = await fetch(authorizationUrl, { redirect: 'manual', headers: { [USER_HEADER]: user } });
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) {
        throw new Error(`authorization did not redirect: HTTP ${response.status} ${await response.text()}`);
      }
      await response.body?.cancel();
      return location;
    },
    registeredClients(): OAuthClientInformationFull[] {
      return [...provider.clients.values()];
    },
    /** Every token response so far, oldest first (one per authorization code or refresh). */
    issuedTokens(): IssuedToken[] {
      return [...provider.issued];
    },
    /** Makes every access token issued so far expired: the next call answers 401 and the client must refresh. */
    expireAccessTokens(): number {
      return provider.expireAccessTokens();
    },
    /** Forgets every refresh token: a refresh then fails with invalid_grant. */
    revokeRefreshTokens(): number {
      return provider.revokeRefreshTokens();
    },
    async close() {
      for (const { transport } of transports.values()) await transport.close().catch(() => undefined);
      transports.clear();
      for (const { http } of new Set([resourceServer, authServer])) {
        http.closeAllConnections();
        await new Promise<void>((resolve) => http.close(() => resolve()));
      }
    },
  };
}
