import type * as Oidc from 'openid-client';
import { LRUCache } from 'lru-cache';
import { createGuardedFetch, type GuardedFetch } from '../../platform/url-policy.js';
import type { Deps } from '../../deps.js';
import { CreateUserBody, DEACTIVATED, isActive, writeUser, type EmailItem, type UserItem, emailKey, userKey } from '../../org/index.js';
import { sameSecret, tokenHash } from '../../platform/compare.js';
import { ForbiddenError, NotFoundError, TooManyRequestsError, UnauthorizedError, ValidationError } from '../../platform/errors.js';
import { ssoStartThrottleKey } from '../entities.js';
import { ssoStateKey } from './entities.js';
import { once } from '../../platform/once.js';
import { addToWindow } from '../../platform/windows.js';
import { newBinding, type Binding } from './binding.js';
import { domainOf, readSso, secretContext, ssoOfEmail, ssoRedirectUri, type SsoItem } from './config.js';

/*
 * Sign-in through an organisation's OpenID provider, with `openid-client` (certified): discovery,
 * the authorization code flow with PKCE, `state` and `nonce`, and the ID token checked as the spec
 * asks (issuer, audience, expiry, nonce, signature with the provider's keys). The provider is an
 * org admin's URL, so every request to it goes through the same address policy as tool servers.
 */

/** A sign-in under way: found by its state, taken once, only by the browser that started it. */
interface PendingSignIn {
  org_id: string;
  verifier_sealed: string;
  nonce: string;
  redirect_uri: string;
  /** SHA-256 of the browser-binding cookie's value (./binding.ts): the callback goes on only with that cookie. */
  binding_hash: string;
  /** The start's count in its client address's window, given back when the sign-in completes. */
  started_from: string;
  started_window: number;
  ttl: number;
}

const PENDING_SECONDS = 600;

/** Sign-ins started from one client address per window and not completed: past this, a start is 429 and writes nothing. */
const SSO_START_LIMIT = 50;
const START_WINDOW_SECONDS = 15 * 60;
const NOT_THIS_BROWSER = 'this sign-in was not started in this browser (or its cookie has expired): start it again from the sign-in page';
const UNVERIFIED =
  'the identity provider did not release a verified e-mail address (its email_verified claim is not true): ' +
  'ask your administrator to have the provider release it';

/** The OpenID client, loaded with the first sign-in: most cold starts of the API function sign nobody in. */
const loadOidc = once(() => import('openid-client'));
const COULD_NOT_VERIFY = "the identity provider's answer could not be verified; start the sign-in again";

/** Discoveries of one organisation's provider waiting at once: past this, a sign-in is 429 before it waits. */
const MAX_DISCOVERIES_PER_ORG = 4;
const discovering = new Map<string, number>();
/** A provider's configuration, kept for 5 minutes per organisation and version of its setting (sign-ins then wait on nothing). */
const configurations = new LRUCache<string, Oidc.Configuration>({ max: 1_000, ttl: 5 * 60_000 });
/** One guarded fetch per process for every provider (its pools capped per origin), never closed. */
let providerFetch: GuardedFetch | undefined;

/** The provider's configuration (discovery), with its requests through the address policy. */
async function configurationOf(deps: Deps, item: SsoItem): Promise<Oidc.Configuration> {
  // Every change of the setting seals the secret anew: the sealed secret names the setting's version.
  const cacheKey = [item.org_id, item.issuer, item.client_id, item.client_secret_sealed].join('\u0000');
  const cached = configurations.get(cacheKey);
  if (cached) return cached;
  const waiting = discovering.get(item.org_id) ?? 0;
  if (waiting >= MAX_DISCOVERIES_PER_ORG) {
    throw new TooManyRequestsError(
      'too many sign-ins are waiting for this organisation’s identity provider; try again in a few seconds',
      5,
    );
  }
  discovering.set(item.org_id, waiting + 1);
  try {
    const secret = await deps.secrets.open(item.client_secret_sealed, secretContext(item.org_id));
    const config = await discover(deps, { issuer: item.issuer, clientId: item.client_id, secret });
    configurations.set(cacheKey, config);
    return config;
  } finally {
    const left = (discovering.get(item.org_id) ?? 1) - 1;
    if (left > 0) discovering.set(item.org_id, left);
    else discovering.delete(item.org_id);
  }
}

/** Discovery of an issuer for a client, its requests through the address policy; 401 naming the issuer when it fails. */
async function discover(deps: Deps, client: { issuer: string; clientId: string; secret: string }): Promise<Oidc.Configuration> {
  const oidc = await loadOidc();
  providerFetch ??= createGuardedFetch(deps.config.mcpAllowPrivateUrls);
  const issuer = new URL(client.issuer);
  // Plain http only where private addresses are allowed (a provider on this machine); never on AWS.
  const insecure = issuer.protocol === 'http:' && deps.config.mcpAllowPrivateUrls;
  const options: Oidc.DiscoveryRequestOptions = {
    [oidc.customFetch]: providerFetch.oauthFetch as unknown as Oidc.CustomFetch,
    timeout: 10,
    ...(insecure ? { execute: [oidc.allowInsecureRequests] } : {}),
  };
  try {
    return await oidc.discovery(issuer, client.clientId, client.secret, undefined, options);
  } catch (error) {
    throw new UnauthorizedError(`the identity provider could not be reached (${client.issuer})`, { cause: error });
  }
}

/** `POST /api/org/sso/test`: whether the provider's discovery works for this issuer and client (the setting is not changed). */
export async function testSsoProvider(
  deps: Deps,
  input: { issuer: string; client_id: string },
): Promise<{ ok: true; issuer: string; authorization_endpoint: string } | { ok: false; error: string }> {
  try {
    const config = await discover(deps, { issuer: input.issuer.replace(/\/+$/, ''), clientId: input.client_id, secret: '' });
    const metadata = config.serverMetadata();
    return { ok: true, issuer: metadata.issuer, authorization_endpoint: String(metadata.authorization_endpoint ?? '') };
  } catch (error) {
    return { ok: false, error: error instanceof UnauthorizedError ? error.message : 'the provider could not be checked' };
  }
}

/**
 * Counts a start from the client address (one atomic ADD in its 15-minute window, as logins count)
 * before anything is read or written: past `SSO_START_LIMIT`, 429 with the window's end.
 */
async function admitStart(deps: Deps, address: string): Promise<number> {
  const nowMs = deps.clock.now().getTime();
  const window = Math.floor(nowMs / 1000 / START_WINDOW_SECONDS);
  const windowEnds = (window + 1) * START_WINDOW_SECONDS;
  const counted = await addToWindow(deps.table, ssoStartThrottleKey(address, window), 1, windowEnds);
  if (counted > SSO_START_LIMIT) {
    throw new TooManyRequestsError(
      'too many sign-ins started from your address; try again later',
      Math.max(1, Math.ceil(windowEnds - nowMs / 1000)),
    );
  }
  return window;
}

/** The scopes a sign-in asks for: `groups` too where the provider lists it (Okta releases its groups claim only for it). */
function scopesOf(config: Oidc.Configuration): string {
  const supported = config.serverMetadata().scopes_supported ?? [];
  return ['openid', 'email', 'profile', ...(supported.includes('groups') ? ['groups'] : [])].join(' ');
}

/**
 * `GET /api/auth/sso?email=`: where to send the person (their organisation's provider), or 404; and
 * the browser-binding cookie to set, whose hash the sign-in's state keeps.
 */
export async function startSsoSignIn(
  deps: Deps,
  request: { email: string; origin: string; address: string },
): Promise<{ location: string; binding: Binding }> {
  const window = await admitStart(deps, request.address);
  const item = await ssoOfEmail(deps, request.email);
  if (!item) throw new NotFoundError('no organisation signs in this e-mail domain with single sign-on');
  const oidc = await loadOidc();
  const config = await configurationOf(deps, item);
  const verifier = oidc.randomPKCECodeVerifier();
  const state = oidc.randomState();
  const nonce = oidc.randomNonce();
  const redirectUri = ssoRedirectUri(deps, request.origin);
  const binding = newBinding(redirectUri, PENDING_SECONDS);
  const pending: PendingSignIn = {
    org_id: item.org_id,
    verifier_sealed: await deps.secrets.seal(verifier, `sso-state:${state}`),
    nonce,
    redirect_uri: redirectUri,
    binding_hash: tokenHash(binding.value),
    started_from: request.address,
    started_window: window,
    ttl: Math.floor(deps.clock.now().getTime() / 1000) + PENDING_SECONDS,
  };
  await deps.table.put({ ...ssoStateKey(state), ...pending });
  const url = oidc.buildAuthorizationUrl(config, {
    redirect_uri: redirectUri,
    scope: scopesOf(config),
    code_challenge: await oidc.calculatePKCECodeChallenge(verifier),
    code_challenge_method: 'S256',
    state,
    nonce,
    login_hint: request.email,
  });
  return { location: url.href, binding };
}

/** The groups a claim holds (a list of names, or one name). */
function groupsOf(claims: Record<string, unknown>, claim: string | null): string[] {
  const value = claim ? claims[claim] : undefined;
  if (Array.isArray(value)) return value.filter((group): group is string => typeof group === 'string');
  return typeof value === 'string' ? [value] : [];
}

/**
 * The user an ID token names: found by e-mail in the organisation, or made on their first sign-in.
 * Only an address the provider says is verified (`email_verified` true, or the string "true") links
 * to an account or makes one. The address and the name go through the users API's own schemas; a
 * name it would refuse (control or invisible format characters, too long) is replaced by the address.
 */
async function userOf(deps: Deps, item: SsoItem, claims: Record<string, unknown>): Promise<UserItem> {
  const address = CreateUserBody.shape.email.safeParse(claims.email);
  const email = address.success ? address.data : '';
  if (!email || !item.domains.includes(domainOf(email))) {
    throw new ForbiddenError('the identity provider did not give an e-mail address of one of the organisation’s domains');
  }
  if (claims.email_verified !== true && claims.email_verified !== 'true') throw new ForbiddenError(UNVERIFIED);
  const record = await deps.table.get<EmailItem>(emailKey(email), true);
  if (record) {
    if (record.org_id !== item.org_id) throw new ForbiddenError('this e-mail address belongs to another organisation');
    const user = await deps.table.get<UserItem>(userKey(record.org_id, record.user_id), true);
    if (!user) throw new UnauthorizedError('this account no longer exists');
    if (!isActive(user)) throw new ForbiddenError(DEACTIVATED);
    return user;
  }
  const admin = item.admin_group !== null && groupsOf(claims, item.groups_claim ?? 'groups').includes(item.admin_group);
  const named = CreateUserBody.shape.name.safeParse(claims.name);
  const name = named.success ? named.data : email;
  // No password: this person signs in through the provider only.
  return writeUser(deps, item.org_id, { name, email, org_role: admin ? 'admin' : item.default_role, passwordHash: '' });
}

/**
 * `GET /api/auth/sso/callback`: the provider's answer, checked whole (state taken once, PKCE, the
 * code exchanged, the ID token's issuer, audience, expiry, nonce and signature), then the user.
 */
export async function finishSsoSignIn(
  deps: Deps,
  query: { state?: string; code?: string; error?: string; iss?: string },
  binding: string | undefined,
): Promise<UserItem> {
  if (query.error) throw new UnauthorizedError(`the identity provider refused the sign-in (${query.error.slice(0, 100)})`);
  if (!query.state || !query.code)
    throw new ValidationError('the sign-in answer lacks its state or code', [{ path: 'state', message: 'required' }]);
  const pending = await takePending(deps, query.state, binding);
  const item = await readSso(deps, pending.org_id);
  if (!item) throw new UnauthorizedError('single sign-on is no longer configured for this organisation');
  const verifier = await deps.secrets.open(pending.verifier_sealed, `sso-state:${query.state}`);
  const oidc = await loadOidc();
  const config = await configurationOf(deps, item);
  const answer = new URL(pending.redirect_uri);
  for (const [name, value] of Object.entries(query)) if (value !== undefined) answer.searchParams.set(name, value);
  let claims: Record<string, unknown>;
  try {
    const tokens = await oidc.authorizationCodeGrant(config, answer, {
      pkceCodeVerifier: verifier,
      expectedState: query.state,
      expectedNonce: pending.nonce,
      idTokenExpected: true,
    });
    claims = (tokens.claims() ?? {}) as Record<string, unknown>;
  } catch (error) {
    throw new UnauthorizedError(COULD_NOT_VERIFY, { cause: error });
  }
  const user = await userOf(deps, item, claims);
  // A completed sign-in gives its start back: only abandoned starts add up (as only failed logins do).
  const windowEnds = (pending.started_window + 1) * START_WINDOW_SECONDS;
  await addToWindow(deps.table, ssoStartThrottleKey(pending.started_from, pending.started_window), -1, windowEnds);
  return user;
}

/**
 * The sign-in of `state`, taken once (a replayed answer finds nothing), and only by the browser that
 * started it: the binding cookie is checked before the state is spent, so a callback URL sent to
 * someone else (login CSRF) is refused and leaves the sign-in to its own browser.
 */
async function takePending(deps: Deps, state: string, binding: string | undefined): Promise<PendingSignIn> {
  const expired = () => new UnauthorizedError('this sign-in has expired or was already used; start again');
  const waiting = await deps.table.get<PendingSignIn>(ssoStateKey(state), true);
  if (!waiting) throw expired();
  if (!binding || !sameSecret(tokenHash(binding), waiting.binding_hash ?? '')) throw new UnauthorizedError(NOT_THIS_BROWSER);
  const pending = await deps.table.deleteReturningOld<PendingSignIn>(ssoStateKey(state));
  if (!pending || pending.ttl * 1000 <= deps.clock.now().getTime()) throw expired();
  return pending;
}

/**
 * Password sign-in where single sign-on is required: 403 before the password is checked, the same
 * answer whatever the password (so the refusal confirms nothing), for every user of such an
 * organisation and any other address of its domains, but the admin who configured it.
 */
export async function assertPasswordSignInAllowed(deps: Deps, email: string): Promise<void> {
  const record = await deps.table.get<EmailItem>(emailKey(email), true);
  const item = record ? await readSso(deps, record.org_id) : await ssoOfEmail(deps, email);
  if (item?.required && item.configured_by !== record?.user_id) throw new ForbiddenError('this organisation signs in with single sign-on');
}
