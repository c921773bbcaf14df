import { randomBytes } from 'node:crypto';
import { auth, type OAuthClientProvider } from '@modelcontextprotocol/sdk/client/auth.js';
import { mcpOf, type Deps } from '../deps.js';
import { ValidationError } from '../platform/errors.js';
import type { OAuthClientInformationMixed, OAuthClientMetadata, OAuthTokens } from '@modelcontextprotocol/sdk/shared/auth.js';
import { userKey, isActive, type UserItem } from '../org/index.js';
import { grantContext, oauthClientKey, oauthStateKey, oauthTokensKey } from './entities.js';
import type { SecretStore } from '../platform/store.js';

/*
 * OAuth 2.1 for tool servers, as the MCP authorization spec describes it, through the MCP SDK's
 * client auth (`auth()` and the transports' `authProvider`): discovery, dynamic registration,
 * PKCE, the resource parameter and refresh are the SDK's. This provider only keeps what the SDK
 * hands it — the registered client and the tokens, sealed in the table; the PKCE verifier in the
 * grant's state item — and captures the authorization URL instead of opening a browser.
 */

/** Whose grant: the workspace's own (`workspace`), or a user's (`user:<id>`). */
export type GrantSubject = string;

/** The grant under way, kept until the callback (single use, ten minutes). */
export interface GrantState {
  state: string;
  connectionId: string;
  /** The origin of the tool server the grant was started for: the callback refuses it if the connection moved. */
  origin: string;
  subject: GrantSubject;
  /** Who started it: only their session may finish it. */
  userId: string;
  orgId: string;
  redirectUrl: string;
  verifier: string;
}

const GRANT_LIFETIME_SECONDS = 10 * 60;

/** The origin of a tool server's URL (`scheme://host:port`), or '' for a URL that does not parse. */
export function originOf(url: string | null | undefined): string {
  try {
    return new URL(url ?? '').origin;
  } catch {
    return '';
  }
}

/** The process's brief memory of whether people are active users (auth/session-cache.ts). */
interface PeopleStanding {
  personActive(orgId: string, userId: string, load: () => Promise<boolean>): Promise<boolean>;
}

/** Which grant a provider keeps: of which connection (of which organisation), at which tool server, whose, and where the person comes back to. */
export interface GrantTarget {
  /**
   * The organisation whose user a person's grant (`user:<id>`) belongs to, where the grant is used
   * for someone who may not be signed in now (a query, a call approved later): their tokens then go
   * out only while they are an active user of it. Granting and editing act for the signed-in user.
   */
  orgId?: string;
  connectionId: string;
  /** The connection's URL: its origin is the only one its tokens are sent to. */
  serverUrl: string;
  subject: GrantSubject;
  redirectUrl: string;
}

/**
 * The SDK's OAuth client provider over the table. A grant belongs to the origin it was made for
 * (CONTRACT.md, "Tool servers are not trusted either"): the registered client and the tokens are
 * stored with the tool server's origin and sealed under it, and are handed to the SDK only while the
 * connection's URL has that same origin. Moving a connection to another origin deletes them
 * (`update.ts`); this check keeps a bearer from ever following a URL that changed some other way.
 */
export class StoredOAuthProvider implements OAuthClientProvider {
  /** Set by the SDK when a person must grant access: the URL to send them to. */
  authorizationUrl: URL | undefined;
  readonly redirectUrl: string;
  private verifier: string | undefined;
  private readonly stateValue = randomBytes(24).toString('base64url');
  private readonly connectionId: string;
  private readonly subject: GrantSubject;
  private readonly orgId: string | undefined;
  private readonly origin: string;

  constructor(
    private readonly store: SecretStore & { sessions?: PeopleStanding },
    target: GrantTarget,
    /** At the callback: the verifier the grant was started with. */
    startedWith?: string,
  ) {
    this.connectionId = target.connectionId;
    this.orgId = target.orgId;
    this.subject = target.subject;
    this.redirectUrl = target.redirectUrl;
    this.origin = originOf(target.serverUrl);
    this.verifier = startedWith;
  }

  get clientMetadata(): OAuthClientMetadata {
    return {
      client_name: 'Workspace agent proxy',
      redirect_uris: [this.redirectUrl],
      grant_types: ['authorization_code', 'refresh_token'],
      response_types: ['code'],
      token_endpoint_auth_method: 'client_secret_post',
    };
  }

  state(): string {
    return this.stateValue;
  }

  async clientInformation(): Promise<OAuthClientInformationMixed | undefined> {
    return this.read<OAuthClientInformationMixed>(oauthClientKey(this.connectionId), 'client');
  }

  async saveClientInformation(information: OAuthClientInformationMixed): Promise<void> {
    await this.write(oauthClientKey(this.connectionId), 'client', information);
  }

  /**
   * A person's tokens go out only while that person is an active user of the organisation: a query
   * or an approved call acting for someone deactivated or removed since finds no grant, and its
   * server asks for one nobody can finish for them. Asked on each request the transport makes, so it
   * is answered from the process's session cache (`personActive`: read at most every few seconds,
   * forgotten at once when this process deactivates or removes the person), not a read each time.
   */
  async tokens(): Promise<OAuthTokens | undefined> {
    if (
      this.orgId !== undefined &&
      this.subject.startsWith('user:') &&
      !(await this.personActive(this.orgId, this.subject.slice('user:'.length)))
    ) {
      return undefined;
    }
    return this.read<OAuthTokens>(oauthTokensKey(this.connectionId, this.subject), `tokens:${this.subject}`);
  }

  private personActive(orgId: string, userId: string): Promise<boolean> {
    const read = async () => {
      const person = await this.store.table.get<UserItem>(userKey(orgId, userId), true);
      return !!person && isActive(person);
    };
    return this.store.sessions ? this.store.sessions.personActive(orgId, userId, read) : read();
  }

  async saveTokens(tokens: OAuthTokens): Promise<void> {
    await this.write(oauthTokensKey(this.connectionId, this.subject), `tokens:${this.subject}`, tokens);
  }

  /**
   * The URL a person is sent to comes from the tool server's metadata: only an http(s) one is
   * passed on (the SDK already refuses javascript:, data: and vbscript:; this refuses the rest).
   */
  redirectToAuthorization(url: URL): void {
    if (url.protocol !== 'https:' && url.protocol !== 'http:')
      throw new Error(`the authorization endpoint is not an http(s) URL (${url.protocol})`);
    this.authorizationUrl = url;
  }

  saveCodeVerifier(verifier: string): void {
    this.verifier = verifier;
  }

  codeVerifier(): string {
    if (!this.verifier) throw new Error('no PKCE verifier: the grant was not started here');
    return this.verifier;
  }

  /** The SDK found the tokens (or the client) no longer valid: forget them, a person grants again. */
  async invalidateCredentials(scope: 'all' | 'client' | 'tokens' | 'verifier' | 'discovery'): Promise<void> {
    if (scope === 'all' || scope === 'tokens') await this.store.table.delete(oauthTokensKey(this.connectionId, this.subject));
    if (scope === 'all' || scope === 'client') await this.store.table.delete(oauthClientKey(this.connectionId));
    if (scope === 'all' || scope === 'verifier') this.verifier = undefined;
  }

  /** The grant to keep until the callback, once the SDK has made the authorization URL. */
  grantState(userId: string, orgId: string): GrantState | undefined {
    if (!this.authorizationUrl || !this.verifier) return undefined;
    return {
      state: this.stateValue,
      connectionId: this.connectionId,
      origin: this.origin,
      subject: this.subject,
      userId,
      orgId,
      redirectUrl: this.redirectUrl,
      verifier: this.verifier,
    };
  }

  /**
   * A stored secret of this grant, or nothing when it was stored for another origin than the
   * connection's (every one is stored with its origin: migration 009 bound those stored before
   * grants kept it). One without an origin is no origin's, and is not used.
   */
  private async read<T>(key: { pk: string; sk: string }, what: string): Promise<T | undefined> {
    const item = await this.store.table.get<{ sealed: string; origin?: string }>(key, true);
    if (!item || item.origin !== this.origin) return undefined;
    return JSON.parse(await this.store.secrets.open(item.sealed, grantContext(this.connectionId, what, item.origin))) as T;
  }

  private async write(key: { pk: string; sk: string }, what: string, value: unknown): Promise<void> {
    const sealed = await this.store.secrets.seal(JSON.stringify(value), grantContext(this.connectionId, what, this.origin));
    await this.store.table.put({ ...key, sealed, origin: this.origin, updated_at: this.store.clock.now().toISOString() });
  }
}

/** Keeps a grant under way (sealed: it holds the PKCE verifier), for ten minutes. */
async function saveGrantState(store: SecretStore, grant: GrantState): Promise<void> {
  const expires = Math.floor(store.clock.now().getTime() / 1000) + GRANT_LIFETIME_SECONDS;
  const sealed = await store.secrets.seal(JSON.stringify(grant), `oauth-state:${grant.state}`);
  await store.table.put({ ...oauthStateKey(grant.state), sealed, expires_at: expires, ttl: expires });
}

/** Takes a grant under way: once (a conditional delete), and only within its ten minutes. */
export async function takeGrantState(store: SecretStore, state: string): Promise<GrantState | undefined> {
  const item = await store.table.deleteReturningOld<{ sealed: string; expires_at: number }>(oauthStateKey(state));
  if (!item || item.expires_at * 1000 < store.clock.now().getTime()) return undefined;
  return JSON.parse(await store.secrets.open(item.sealed, `oauth-state:${state}`)) as GrantState;
}

/** A provider for a new grant: it ignores the tokens held now (they keep working until the new grant replaces them). */
class FreshGrant extends StoredOAuthProvider {
  override async tokens() {
    return undefined;
  }
}

/**
 * Starts a grant: discovery and (when no client is known) dynamic registration through the SDK,
 * then the authorization URL with PKCE and the resource parameter. Answers that URL.
 */
export async function startGrant(deps: Deps, target: GrantTarget, starter: { userId: string; orgId: string }): Promise<string> {
  const provider = new FreshGrant(deps, target);
  let result: string;
  try {
    result = await auth(provider, { serverUrl: target.serverUrl, fetchFn: mcpOf(deps).oauthFetchFor(starter.orgId) });
  } catch (error) {
    throw new ValidationError(
      'could not start the authorization',
      [{ path: 'url', message: `the server's authorization could not be discovered: ${mcpOf(deps).reasonOf(error)}` }],
      { cause: error },
    );
  }
  const grant = provider.grantState(starter.userId, starter.orgId);
  if (result !== 'REDIRECT' || !grant || !provider.authorizationUrl)
    throw new Error('the authorization server answered no authorization URL');
  await saveGrantState(deps, grant);
  return provider.authorizationUrl.href;
}
