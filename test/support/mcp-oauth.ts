import type { OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';

/*
 * An MCP client's side of the gateway's sign-in, for tests: the MCP SDK's own OAuth client
 * (`auth()`, the transports' authProvider) with an in-memory store, and the person's consent given
 * through the console's API (the browser test gives it on the console's page).
 */

/** What an MCP client keeps: its registration, tokens and verifier, and where it was sent to sign in. */
export class MemoryOAuthClient implements OAuthClientProvider {
  information: OAuthClientInformationMixed | undefined;
  saved: OAuthTokens | undefined;
  verifier = '';
  authorizationUrl: URL | undefined;

  constructor(
    readonly redirectUrl: string,
    readonly name = 'Test MCP client',
  ) {}

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: this.name,
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'none',
    };
  }

  clientInformation() {
    return this.information;
  }
  saveClientInformation(information: OAuthClientInformationMixed) {
    this.information = information;
  }
  tokens() {
    return this.saved;
  }
  saveTokens(tokens: OAuthTokens) {
    this.saved = tokens;
  }
  redirectToAuthorization(url: URL) {
    this.authorizationUrl = url;
  }
  saveCodeVerifier(verifier: string) {
    this.verifier = verifier;
  }
  codeVerifier() {
    return this.verifier;
  }
}

/** The cookies a response sets, as a Cookie header. */
const cookiesOf = (response: Response) =>
  response.headers
    .getSetCookie()
    .map((cookie) => cookie.split(';')[0])
    .join('; ');

/** Where an authorization leads: the consent page's interaction id, and the provider's cookies to resume with. */
export async function openAuthorization(url: URL): Promise<{ uid: string; cookies: string; consentUrl: URL }> {
  const response = await fetch(url, { redirect: 'manual' });
  const location = response.headers.get('location');
  if (response.status !== 303 || !location) throw new Error(`the authorization answered ${response.status}: ${await response.text()}`);
  const consentUrl = new URL(location, url);
  return { uid: consentUrl.pathname.split('/').pop() ?? '', cookies: cookiesOf(response), consentUrl };
}

/**
 * The person's decision through the console's API (with their session cookie), then the browser's
 * way back to the provider: answers the client's redirect (with `code`, `state`, `iss`, or `error`).
 */
export async function consentThroughApi(base: string, url: URL, session: string, decision: 'allow' | 'deny' = 'allow'): Promise<URL> {
  const { uid, cookies } = await openAuthorization(url);
  // The same browser: its session and the authorization's cookies.
  const decided = await fetch(`${base}/api/oauth/interactions/${uid}`, {
    method: 'POST',
    headers: { cookie: `${session}; ${cookies}`, 'content-type': 'application/json' },
    body: JSON.stringify({ decision }),
  });
  if (decided.status !== 200) throw new Error(`the decision answered ${decided.status}: ${await decided.text()}`);
  const { redirect_to } = (await decided.json()) as { redirect_to: string };
  const back = await fetch(new URL(redirect_to, base), { headers: { cookie: cookies }, redirect: 'manual' });
  const location = back.headers.get('location');
  if (!location) throw new Error(`the provider answered ${back.status}: ${await back.text()}`);
  return new URL(location, base);
}

/** An `initialize` at a workspace's MCP URL with `token` (401 once the token is refused). */
export function initializeWith(mcpUrl: string, token: string, protocolVersion = '2025-11-25'): Promise<Response> {
  return fetch(mcpUrl, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion, capabilities: {}, clientInfo: { name: 'probe', version: '1' } },
    }),
  });
}
