import { fileURLToPath } from 'node:url';
import {
  auth,
  discoverAuthorizationServerMetadata,
  discoverOAuthProtectedResourceMetadata,
  exchangeAuthorization,
  extractWWWAuthenticateParams,
  type OAuthClientProvider,
  UnauthorizedError,
} from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport, StreamableHTTPError } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { InvalidGrantError } from '@modelcontextprotocol/sdk/server/auth/errors.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { describe, expect, it } from 'vitest';
import { startHeaderMcpServer } from '../support/header-mcp-server.js';
import { startOAuthMcpServer } from '../support/oauth-mcp-server.js';

const REDIRECT_URL = 'http://127.0.0.1:1/callback';
const ENV_SERVER = fileURLToPath(new URL('../fixtures/env-mcp-server.mjs', import.meta.url));

/** The client side of OAuth, in memory: what a real client would keep per user and server. */
class MemoryOAuthClient implements OAuthClientProvider {
  client: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier: string | undefined;
  readonly authorizationUrls: URL[] = [];
  readonly invalidated: string[] = [];

  constructor(options: { invalidates?: boolean } = {}) {
    if (options.invalidates === false) this.invalidateCredentials = undefined;
  }

  get redirectUrl() {
    return REDIRECT_URL;
  }

  get clientMetadata(): OAuthClientMetadata {
    return { client_name: 'fixture test client', redirect_uris: [REDIRECT_URL], grant_types: ['authorization_code', 'refresh_token'] };
  }

  state() {
    return 'state-123';
  }

  clientInformation() {
    return this.client;
  }

  saveClientInformation(information: OAuthClientInformationMixed) {
    this.client = information;
  }

  tokens() {
    return this.saved;
  }

  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }

  redirectToAuthorization(authorizationUrl: URL) {
    this.authorizationUrls.push(authorizationUrl);
  }

  saveCodeVerifier(codeVerifier: string) {
    this.verifier = codeVerifier;
  }

  codeVerifier() {
    if (!this.verifier) throw new Error('no code verifier saved');
    return this.verifier;
  }

  invalidateCredentials?: OAuthClientProvider['invalidateCredentials'] = (scope) => {
    this.invalidated.push(scope);
    if (scope === 'all' || scope === 'tokens') this.saved = undefined;
    if (scope === 'all' || scope === 'client') this.client = undefined;
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  };

  lastAuthorizationUrl(): URL {
    const url = this.authorizationUrls.at(-1);
    if (!url) throw new Error('auth() has not redirected');
    return url;
  }
}

type OAuthServer = Awaited<ReturnType<typeof startOAuthMcpServer>>;

/** The whole interactive flow: auth() redirects, the user logs in, auth() exchanges the code. */
async function authorize(server: OAuthServer, provider: MemoryOAuthClient, user: string) {
  expect(await auth(provider, { serverUrl: server.url })).toBe('REDIRECT');
  const location = new URL(await server.login(provider.lastAuthorizationUrl(), user));
  const code = location.searchParams.get('code');
  expect(code).toBeTruthy();
  expect(await auth(provider, { serverUrl: server.url, authorizationCode: code! })).toBe('AUTHORIZED');
}

async function connect(url: string, provider: OAuthClientProvider): Promise<Client> {
  const client = new Client({ name: 'fixture-test', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url), { authProvider: provider }));
  return client;
}

function textOf(result: Awaited<ReturnType<Client['callTool']>>): string {
  const content = result.content as { type: string; text?: string }[];
  return content.map((part) => part.text ?? '').join('');
}

async function failureOf(attempt: () => Promise<unknown>): Promise<unknown> {
  return attempt().then(
    (value) => {
      throw new Error(`expected a failure, got ${JSON.stringify(value)}`);
    },
    (error: unknown) => error,
  );
}

describe('the OAuth MCP server fixture, driven by the SDK client', () => {
  it('announces its authorization server in the 401 and runs the full flow: registration, PKCE, refresh, revocation', async () => {
    const server = await startOAuthMcpServer();
    const clients: Client[] = [];
    try {
      // The unauthenticated call: 401 naming the protected resource metadata (RFC 9728).
      const refused = await fetch(server.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(refused.status).toBe(401);
      const challenge = extractWWWAuthenticateParams(refused);
      expect(challenge.resourceMetadataUrl?.href).toBe(server.resourceMetadataUrl);
      expect(challenge.scope).toBe('mcp:tools');
      const metadata = await discoverOAuthProtectedResourceMetadata(server.url, { resourceMetadataUrl: challenge.resourceMetadataUrl });
      expect(metadata.resource).toBe(server.url);
      expect(metadata.authorization_servers).toEqual([server.issuer]);

      // First auth(): dynamic registration, then a redirect to the authorization endpoint.
      const provider = new MemoryOAuthClient();
      expect(await auth(provider, { serverUrl: server.url, resourceMetadataUrl: challenge.resourceMetadataUrl })).toBe('REDIRECT');
      expect(server.registeredClients().map((client) => client.client_id)).toEqual([provider.client?.client_id]);
      const authorizationUrl = provider.lastAuthorizationUrl();
      expect(authorizationUrl.origin + authorizationUrl.pathname).toBe(new URL('authorize', server.issuer).href);
      expect(authorizationUrl.searchParams.get('code_challenge_method')).toBe('S256');
      expect(authorizationUrl.searchParams.get('resource')).toBe(server.url);
      expect(authorizationUrl.searchParams.get('redirect_uri')).toBe(REDIRECT_URL);

      // The user logs in; the redirect goes back to the client with the code and the state.
      const location = new URL(await server.login(authorizationUrl, 'alice'));
      expect(location.origin + location.pathname).toBe(REDIRECT_URL);
      expect(location.searchParams.get('state')).toBe('state-123');
      const code = location.searchParams.get('code')!;

      // A wrong code verifier is refused by the SDK's PKCE check, and the code stays usable.
      const exchange = {
        metadata: await discoverAuthorizationServerMetadata(server.issuer),
        clientInformation: provider.client!,
        authorizationCode: code,
        redirectUri: REDIRECT_URL,
        resource: new URL(server.url),
      };
      expect(await failureOf(() => exchangeAuthorization(server.issuer, { ...exchange, codeVerifier: 'x'.repeat(43) }))).toBeInstanceOf(
        InvalidGrantError,
      );

      expect(await auth(provider, { serverUrl: server.url, authorizationCode: code })).toBe('AUTHORIZED');
      expect(provider.saved?.refresh_token).toBeTruthy();
      expect(server.issuedTokens()).toMatchObject([
        { user: 'alice', grant: 'authorization_code', resource: server.url, scopes: ['mcp:tools'] },
      ]);

      // The code is single use.
      expect(await failureOf(() => exchangeAuthorization(server.issuer, { ...exchange, codeVerifier: provider.verifier! }))).toBeInstanceOf(
        InvalidGrantError,
      );
      expect(server.issuedTokens()).toHaveLength(1);

      const client = await connect(server.url, provider);
      clients.push(client);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['whoami', 'search_docs', 'create_ticket']));
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('alice');
      expect(textOf(await client.callTool({ name: 'search_docs', arguments: { query: 'tokens' } }))).toBe('results for tokens (oauth)');
      expect(server.toolCalls).toMatchObject([
        { tool: 'whoami', user: 'alice', clientId: provider.client?.client_id },
        { tool: 'search_docs', user: 'alice', args: { query: 'tokens' } },
      ]);

      // Expired access token: the transport gets a 401, refreshes, and retries the call.
      const firstAccessToken = provider.saved?.access_token;
      expect(server.expireAccessTokens()).toBe(1);
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('alice');
      expect(server.issuedTokens()).toHaveLength(2);
      expect(server.issuedTokens()[1]).toMatchObject({ user: 'alice', grant: 'refresh_token', resource: server.url });
      expect(provider.saved?.access_token).toBe(server.issuedTokens()[1]?.accessToken);
      expect(provider.saved?.access_token).not.toBe(firstAccessToken);
      expect(provider.authorizationUrls).toHaveLength(1);

      // Refresh token revoked too: the refresh fails with invalid_grant; auth() drops the tokens and asks
      // for a new interactive authorization, which the transport reports as UnauthorizedError.
      const callsBefore = server.toolCalls.length;
      expect(server.revokeRefreshTokens()).toBe(1);
      server.expireAccessTokens();
      const error = await failureOf(() => client.callTool({ name: 'whoami', arguments: {} }));
      expect(error).toBeInstanceOf(UnauthorizedError);
      expect((error as Error).message).toBe('Unauthorized');
      expect(provider.invalidated).toEqual(['tokens']);
      expect(provider.saved).toBeUndefined();
      expect(provider.authorizationUrls).toHaveLength(2);
      expect(server.toolCalls).toHaveLength(callsBefore);
      expect(server.issuedTokens()).toHaveLength(2);
    } finally {
      for (const client of clients) await client.close();
      await server.close();
    }
  });

  it('binds each token to the user who logged in, and a provider without invalidateCredentials sees invalid_grant', async () => {
    const server = await startOAuthMcpServer();
    const clients: Client[] = [];
    try {
      const alice = new MemoryOAuthClient();
      const bob = new MemoryOAuthClient({ invalidates: false });
      await authorize(server, alice, 'alice');
      await authorize(server, bob, 'bob');
      expect(server.registeredClients()).toHaveLength(2);

      const aliceClient = await connect(server.url, alice);
      const bobClient = await connect(server.url, bob);
      clients.push(aliceClient, bobClient);
      expect(textOf(await bobClient.callTool({ name: 'whoami', arguments: {} }))).toBe('bob');
      expect(textOf(await aliceClient.callTool({ name: 'whoami', arguments: {} }))).toBe('alice');
      expect(server.toolCalls.map((call) => call.user)).toEqual(['bob', 'alice']);

      server.revokeRefreshTokens();
      server.expireAccessTokens();
      const error = await failureOf(() => bobClient.callTool({ name: 'whoami', arguments: {} }));
      expect(error).toBeInstanceOf(InvalidGrantError);
      expect((error as InvalidGrantError).errorCode).toBe('invalid_grant');
      expect(bob.authorizationUrls).toHaveLength(1);
    } finally {
      for (const client of clients) await client.close();
      await server.close();
    }
  });

  it('refuses an authorization request for another resource, a refusing user and an unknown token', async () => {
    const server = await startOAuthMcpServer();
    try {
      const provider = new MemoryOAuthClient();
      expect(await auth(provider, { serverUrl: server.url })).toBe('REDIRECT');
      const elsewhere = new URL(provider.lastAuthorizationUrl());
      elsewhere.searchParams.set('resource', 'http://127.0.0.1:9/mcp');
      const wrongResource = new URL(await server.login(elsewhere));
      expect(wrongResource.searchParams.get('error')).toBe('invalid_target');
      expect(wrongResource.searchParams.get('code')).toBeNull();

      const refused = new URL(await server.login(provider.lastAuthorizationUrl(), 'denied'));
      expect(refused.searchParams.get('error')).toBe('access_denied');
      expect(refused.searchParams.get('state')).toBe('state-123');

      const forged = await fetch(server.url, {
        method: 'POST',
        headers: { authorization: 'Bearer forged', 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      });
      expect(forged.status).toBe(401);
      expect(extractWWWAuthenticateParams(forged).error).toBe('invalid_token');
      expect(server.issuedTokens()).toHaveLength(0);
    } finally {
      await server.close();
    }
  });

  it('lets access tokens expire on their own after accessTokenTtlSeconds', async () => {
    const server = await startOAuthMcpServer({ accessTokenTtlSeconds: 1 });
    let client: Client | undefined;
    try {
      const provider = new MemoryOAuthClient();
      await authorize(server, provider, 'carol');
      expect(provider.saved?.expires_in).toBe(1);
      client = await connect(server.url, provider);
      await new Promise((resolve) => setTimeout(resolve, 1100));
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('carol');
      // Refreshed at least once; on a busy machine a refreshed token can lapse again before its call.
      const [first, ...later] = server.issuedTokens().map((token) => token.grant);
      expect(first).toBe('authorization_code');
      expect(later.length).toBeGreaterThanOrEqual(1);
      expect(new Set(later)).toEqual(new Set(['refresh_token']));
    } finally {
      await client?.close();
      await server.close();
    }
  });

  it('can put the authorization server on a second origin, found through the protected resource metadata', async () => {
    const server = await startOAuthMcpServer({ separateAuthServer: true });
    let client: Client | undefined;
    try {
      expect(new URL(server.issuer).origin).not.toBe(new URL(server.url).origin);
      const provider = new MemoryOAuthClient();
      await authorize(server, provider, 'dave');
      expect(provider.authorizationUrls[0]?.origin).toBe(new URL(server.issuer).origin);
      client = await connect(server.url, provider);
      expect(textOf(await client.callTool({ name: 'whoami', arguments: {} }))).toBe('dave');
    } finally {
      await client?.close();
      await server.close();
    }
  });
});

describe('the header MCP server fixture', () => {
  it('answers 401 without the header or with a wrong value, and serves its tools with it', async () => {
    const server = await startHeaderMcpServer({ header: 'X-Api-Key', value: 'key-123' });
    let client: Client | undefined;
    try {
      const missing = await failureOf(() =>
        new Client({ name: 'no-key', version: '1.0.0' }).connect(new StreamableHTTPClientTransport(new URL(server.url))),
      );
      expect(missing).toBeInstanceOf(StreamableHTTPError);
      expect((missing as StreamableHTTPError).code).toBe(401);

      const wrong = await failureOf(() =>
        new Client({ name: 'wrong-key', version: '1.0.0' }).connect(
          new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { 'X-Api-Key': 'key-124' } } }),
        ),
      );
      expect((wrong as StreamableHTTPError).code).toBe(401);
      expect(server.rejected).toBe(2);

      client = new Client({ name: 'with-key', version: '1.0.0' });
      await client.connect(
        new StreamableHTTPClientTransport(new URL(server.url), { requestInit: { headers: { 'X-Api-Key': 'key-123' } } }),
      );
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('search_docs');
      expect(textOf(await client.callTool({ name: 'search_docs', arguments: { query: 'keys' } }))).toBe('results for keys (header)');
      expect(server.rejected).toBe(2);
    } finally {
      await client?.close();
      await server.close();
    }
  });
});

describe('the env stdio MCP server fixture', () => {
  async function callLookup(env: Record<string, string>) {
    const client = new Client({ name: 'env-test', version: '1.0.0' });
    await client.connect(new StdioClientTransport({ command: process.execPath, args: [ENV_SERVER], env, stderr: 'pipe' }));
    try {
      const { tools } = await client.listTools();
      const result = await client.callTool({ name: 'lookup_order', arguments: { order_id: '42' } });
      return { tools: tools.map((tool) => tool.name), isError: result.isError === true, text: textOf(result) };
    } finally {
      await client.close();
    }
  }

  it('starts without ORDERS_API_TOKEN but answers the call with an error saying the token is missing', async () => {
    const result = await callLookup({});
    expect(result.tools).toEqual(['lookup_order']);
    expect(result.isError).toBe(true);
    expect(result.text).toContain('ORDERS_API_TOKEN is missing');
  });

  it('answers with the token it was given (its last 2 characters)', async () => {
    const result = await callLookup({ ORDERS_API_TOKEN: 'tok-secret-Q7' });
    expect(result.isError).toBe(false);
    expect(result.text).toBe('order 42 has shipped (orders API token ending in Q7)');
  });
});
