import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import Provider from 'oidc-provider';

/**
 * A real OpenID provider on 127.0.0.1 (`oidc-provider`, the certified Node implementation), with
 * clients registered for the service. Its login and consent are taken at once for the account the
 * authorization request names in `login_hint` (a person who signs in as who they say they are),
 * so a test walks the whole redirect flow with plain HTTP requests.
 */

export interface TestAccount {
  email: string;
  name: string;
  groups?: string[];
  emailVerified?: boolean;
}

export async function startOidcProvider() {
  let handler: ((req: IncomingMessage, res: ServerResponse) => void) | undefined;
  const server = createServer((req, res) => {
    if (handler) handler(req, res);
    else res.writeHead(503).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const issuer = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const accounts = new Map<string, TestAccount>();
  return {
    issuer,
    accounts,
    /** Starts answering, with these clients (made once the service's redirect URI is known). */
    start(clients: { client_id: string; client_secret: string; redirect_uris: string[] }[]) {
      const provider = new Provider(issuer, {
        clients: clients.map((client) => ({ ...client, grant_types: ['authorization_code'], response_types: ['code'] })),
        claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name', 'groups'] },
        // The ID token carries the claims (what the service reads), not only the userinfo endpoint.
        conformIdTokenClaims: false,
        features: { devInteractions: { enabled: false } },
        interactions: { url: (_ctx: unknown, interaction: { uid: string }) => `/interaction/${interaction.uid}` },
        cookies: { keys: ['a test provider cookie key of some length'] },
        findAccount: async (_ctx: unknown, id: string) => {
          const account = accounts.get(id);
          if (!account) return undefined;
          return {
            accountId: id,
            claims: async () => ({
              sub: id,
              email: account.email,
              email_verified: account.emailVerified ?? true,
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
        grant.addOIDCScope('openid email profile');
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
export async function signInAtProvider(authorizationUrl: string, callbackPrefix: string): Promise<URL> {
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
