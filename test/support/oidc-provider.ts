import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { SignJWT, decodeJwt, decodeProtectedHeader, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import Provider from 'oidc-provider';
import type { ApiResponse, TestContext } from './context.js';

/**
 * A real OpenID provider on 127.0.0.1 (`oidc-provider`, the certified Node implementation), with
 * clients registered for the service. Its login and consent are taken at once for the account the
 * authorization request names in `login_hint` (a person who signs in as who they say they are),
 * so a test walks the whole redirect flow with plain HTTP requests.
 */

export interface TestAccount {
  email: string;
  name: string;
  /** Released only for the `groups` scope, as Okta releases its groups claim. */
  groups?: string[];
  /** `email_verified` as the provider sends it (default true); null leaves the claim out, as Entra ID does. */
  emailVerified?: boolean | string | null;
}

/** Claims of an ID token changed before the service receives it, the token signed again with the provider's own key. */
export type IdTokenTamper = (claims: Record<string, unknown>) => Record<string, unknown>;

/**
 * Rewrites the ID token of a token response (a `res.end` of JSON) with `tamper`, signed with the
 * provider's key: what a provider that issues a wrong token would send, valid but for its claims.
 */
function tamperTokenResponse(res: ServerResponse, signingKey: JWK, tamper: IdTokenTamper) {
  const end = res.end.bind(res) as (body?: unknown) => ServerResponse;
  res.end = ((body?: unknown) => {
    void (async () => {
      const answer = JSON.parse(String(body)) as { id_token?: string };
      if (answer.id_token) {
        const header = decodeProtectedHeader(answer.id_token);
        const key = await importJWK(signingKey, 'RS256');
        answer.id_token = await new SignJWT(tamper(decodeJwt(answer.id_token)))
          .setProtectedHeader({ alg: 'RS256', kid: header.kid ?? '' })
          .sign(key);
      }
      const text = JSON.stringify(answer);
      if (!res.headersSent) res.setHeader('content-length', Buffer.byteLength(text));
      end(text);
    })();
    return res;
  }) as ServerResponse['end'];
}

export async function startOidcProvider() {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  // The provider's signing key, made here so a test can sign a token the way the provider would.
  const { privateKey } = await generateKeyPair('RS256', { extractable: true });
  const signingKey: JWK = { ...(await exportJWK(privateKey)), kid: 'test-key', alg: 'RS256', use: 'sig' };
  let tamper: IdTokenTamper | undefined;
  const server = createServer((req, res) => {
    if (tamper && req.method === 'POST' && req.url?.startsWith('/token')) tamperTokenResponse(res, signingKey, tamper);
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  return {
    issuer,
    accounts,
    /** Until called again with undefined, the ID tokens the provider issues are changed by `change` (and signed again). */
    tamperIdTokens(change: IdTokenTamper | undefined) {
      tamper = change;
    },
    /** Starts answering, with these clients (made once the service's redirect URI is known). */
    start(clients: { client_id: string; client_secret: string; redirect_uris: string[] }[]) {
      const provider = new Provider(issuer, {
        clients: clients.map((client) => ({ ...client, grant_types: ['authorization_code'], response_types: ['code'] })),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'], groups: ['groups'] },
        // The ID token carries the claims (what the service reads), not only the userinfo endpoint.
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
        cookies: { keys: ['a test provider cookie key of some length'] },
        jwks: { keys: [signingKey] },
        findAccount: async (_ctx: unknown, id: string) => {
          const account = accounts.get(id);
          if (!account) return undefined;
          return {
            accountId: id,
            claims: async () => ({
              sub: id,
              email: account.email,
              ...(account.emailVerified === null ? {} : { email_verified: account.emailVerified ?? true }),
              name: account.name,
              groups: account.groups ?? [],
            }),
          };
        },
      });
      provider.use(async (ctx, next) => {
        if (!ctx.path.startsWith('/interaction/')) return next();
        const details = await provider.interactionDetails(ctx.req, ctx.res);
        const accountId = String(details.params.login_hint ?? '');
        const grant = new provider.Grant({ accountId, clientId: String(details.params.client_id) });
        grant.addOIDCScope(String(details.params.scope));
        const grantId = await grant.save();
        const to = await provider.interactionResult(
          ctx.req,
          ctx.res,
          { login: { accountId }, consent: { grantId } },
          { mergeWithLastSubmission: false },
        );
        ctx.status = 303;
        ctx.redirect(to);
      });
      handler = provider.callback();
    },
    stop() {
      server.closeAllConnections();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/**
 * Follows the provider's redirects as a browser would (keeping its cookies) from the authorization
 * URL until it redirects to the service's callback: answers that callback URL.
 */
async function signInAtProvider(authorizationUrl: string, callbackPrefix: string): Promise<URL> {
  const cookies = new Map<string, string>();
  let url = authorizationUrl;
  for (let hop = 0; hop < 10; hop += 1) {
    if (url.startsWith(callbackPrefix)) return new URL(url);
    const response = await fetch(url, {
      redirect: 'manual',
      headers: { cookie: [...cookies].map(([name, value]) => `${name}=${value}`).join('; ') },
    });
    for (const line of response.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const at = pair?.indexOf('=') ?? -1;
      if (pair && at > 0) cookies.set(pair.slice(0, at), pair.slice(at + 1));
    }
    const location = response.headers.get('location');
    await response.body?.cancel();
    if (!location) throw new Error(`the provider answered ${response.status} without a redirect at ${url}`);
    url = new URL(location, url).href;
  }
  throw new Error('too many redirects at the provider');
}

/** The service's callback as the tests' requests reach it (`app.request` answers on http://localhost). */
export const SSO_CALLBACK = 'http://localhost/api/auth/sso/callback';

/** The service's client at the provider: what `start` registers and `configureSso` configures the service with. */
export const SSO_CLIENT = { client_id: 'wap', client_secret: 'the client secret of the service', redirect_uris: [SSO_CALLBACK] };

/**
 * Configures the single sign-on of the organisation of the admin signed in with `cookie` (PUT
 * /api/org/sso): the provider `issuer` and the `domains` it signs in, with the service's client
 * (`SSO_CLIENT`), new people members, the `wap-admins` group of the `groups` claim admins, and
 * passwords still allowed, unless `settings` says otherwise.
 */
export function configureSso(
  t: TestContext,
  cookie: string,
  settings: { issuer: string; domains: string[] } & Record<string, unknown>,
): Promise<ApiResponse> {
  return t.request('PUT', '/api/org/sso', {
    cookie,
    body: {
      client_id: SSO_CLIENT.client_id,
      client_secret: SSO_CLIENT.client_secret,
      default_role: 'member',
      required: false,
      admin_group: 'wap-admins',
      groups_claim: 'groups',
      ...settings,
    },
  });
}

/** A sign-in walked through the provider: where it sends the browser back, and the cookies of the browser that started it. */
export interface ProviderAnswer {
  started: ApiResponse;
  callback: URL;
  /** The browser-binding cookie the start set (`service_sso=…`), if any. */
  cookie: string | undefined;
}

/** A browser signing in through the service and the provider: starts a sign-in, walks the provider, comes back to the callback. */
export function ssoBrowser(t: TestContext) {
  return {
    async atProvider(email: string, headers: Record<string, string> = {}): Promise<ProviderAnswer> {
      const started = await t.request('GET', `/api/auth/sso?email=${encodeURIComponent(email)}`, { headers });
      if (started.status !== 302) throw new Error(`the sign-in did not start: ${started.status} ${started.text}`);
      const binding = /service_sso=([^;]*)/.exec(started.headers.get('set-cookie') ?? '')?.[1];
      const callback = await signInAtProvider(started.headers.get('location') ?? '', SSO_CALLBACK);
      return { started, callback, cookie: binding ? `service_sso=${binding}` : undefined };
    },
    /** The provider's redirect to the callback, from the browser holding `cookie` (by default the one that started; null: none). */
    finish(answer: ProviderAnswer, cookie: string | null | undefined = answer.cookie, callback = answer.callback) {
      return t.request('GET', `/api/auth/sso/callback${callback.search}`, cookie ? { cookie } : {});
    },
  };
}
