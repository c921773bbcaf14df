import { useQueryClient } from '@tanstack/react-query';
import createFetchClient, { type ClientPathsWithMethod, type MethodResponse, type Middleware } from 'openapi-fetch';
import createQueryHooks from 'openapi-react-query';
import type { components, paths } from './schema';

/** The API's schemas by name, as generated from GET /api/openapi.json. */
export type Schemas = components['schemas'];

const sessionListeners = new Set<() => void>();

/** Calls `listener` whenever the API answers 401 to a signed-in request: the session ended elsewhere. */
export function onSessionLost(listener: () => void): () => void {
  sessionListeners.add(listener);
  return () => sessionListeners.delete(listener);
}

const noticeSessionLoss: Middleware = {
  onResponse({ response, request }) {
    const url = new URL(request.url);
    const signingIn = url.pathname === '/api/auth/login' || url.pathname === '/api/signup';
    if (response.status === 401 && !signingIn) for (const listener of sessionListeners) listener();
    return response;
  },
};

/**
 * An error answer's JSON body gains its HTTP status (`http_status`), since what a request throws is
 * the body: the console tells a missing thing (404) from a failure by the status, never by the words
 * of the message.
 */
const keepErrorStatus: Middleware = {
  async onResponse({ response }) {
    if (response.ok || !response.headers.get('content-type')?.includes('application/json')) return response;
    const body: unknown = await response
      .clone()
      .json()
      .catch(() => undefined);
    if (!body || typeof body !== 'object' || Array.isArray(body)) return response;
    const headers = new Headers(response.headers);
    headers.delete('content-length');
    const { status, statusText } = response;
    return new Response(JSON.stringify({ ...body, http_status: status }), { status, statusText, headers });
  },
};

/** The typed fetch client: same origin, so the session cookie goes with every request. */
export const api = createFetchClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(noticeSessionLoss, keepErrorStatus);

/** The HTTP status of an error answer (from `keepErrorStatus`); undefined for anything else (the service not reached). */
export function statusOf(error: unknown): number | undefined {
  if (!error || typeof error !== 'object' || !('http_status' in error)) return undefined;
  return typeof error.http_status === 'number' ? error.http_status : undefined;
}

/**
 * Whether asking again may answer otherwise: not for a refusal of the request itself (a 4xx: not
 * found, forbidden, invalid…), which asking again only repeats; yes for a timeout, a rate limit, a
 * failure of the service (5xx) or of the network.
 */
export function isRetryable(error: unknown): boolean {
  const status = statusOf(error);
  return status === undefined || status >= 500 || status === 408 || status === 429;
}

/**
 * A POST whose body the OpenAPI document does not describe, so the typed client cannot send it: a
 * route that also takes a file as `multipart/form-data` (a knowledge document), sent its JSON. Same
 * origin and cookie, and the handling every request gets: a 401 tells the session listeners, an
 * error answer throws its JSON body with its `http_status`. Resolves to the answer's JSON body.
 */
export async function postUndescribed(path: string, body: Record<string, unknown>): Promise<unknown> {
  const response = await fetch(new URL(path, window.location.origin), {
    method: 'POST',
    credentials: 'same-origin',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (response.status === 401) for (const listener of sessionListeners) listener();
  const answer: unknown = await response.json().catch(() => undefined);
  if (response.ok) return answer;
  const status = response.status;
  if (answer && typeof answer === 'object' && !Array.isArray(answer)) throw { ...answer, http_status: status };
  throw { error: `The service answered ${status}.`, http_status: status };
}

/** React Query hooks over the same client: `$api.useQuery('get', '/api/workspaces')`. */
export const $api = createQueryHooks(api);

type ReadPath = ClientPathsWithMethod<typeof api, 'get'>;

/**
 * Reads these paths again, every query of each whatever its parameters (`queryKey: ['get', path]`):
 * what a change shows in. Each part of the console names the reads its changes touch.
 */
export function useRefresh(...paths: ReadPath[]): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await Promise.all(paths.map((path) => queryClient.invalidateQueries({ queryKey: ['get', path] })));
  };
}

/**
 * What a GET of `path` answers, typed as the hooks type it. Use it where a schema is rendered oddly
 * by the generator: a nullable reference (`Message.tokens`) becomes `Tokens & (Record<string, never> | null)`
 * in `Schemas`, which no answer satisfies.
 */
export type Answer<Path extends ClientPathsWithMethod<typeof api, 'get'>> = MethodResponse<typeof api, 'get', Path>;

/** The message of anything a request can fail with: an error body, a network error, or else. */
export function errorText(error: unknown): string {
  if (error === null || error === undefined) return '';
  if (typeof error === 'object' && 'error' in error && typeof error.error === 'string') return error.error;
  if (error instanceof Error) return error.message === 'Failed to fetch' ? 'The service could not be reached.' : error.message;
  return 'Something went wrong.';
}

/**
 * The API's message for one field: its `details` entries whose path is `field` or, unless `exact`,
 * starts with `field.` (a group's input shows its members' messages too).
 */
export function fieldError(error: unknown, field: string, options: { exact?: boolean } = {}): string | undefined {
  if (!error || typeof error !== 'object' || !('details' in error) || !Array.isArray(error.details)) return undefined;
  const details = error.details as { path: string; message: string }[];
  const matching = details.filter((detail) => detail.path === field || (!options.exact && detail.path.startsWith(`${field}.`)));
  return matching.length ? matching.map((detail) => detail.message).join('; ') : undefined;
}

/** Where `GET /api/auth/sso` starts signing in `email` with single sign-on (a redirect to the provider). */
export function ssoSignInPath(email: string): string {
  return `/api/auth/sso?${new URLSearchParams({ email })}`;
}

/**
 * Checks that `email` signs in with single sign-on before the browser is sent there: the redirect to
 * the provider is not followed (an opaque answer means it would go), and an error throws the API's
 * body; a 404 (no organisation signs in the address's domain) as a message for the `email` field.
 */
export async function checkSsoAddress(email: string): Promise<void> {
  const response = await fetch(ssoSignInPath(email), { redirect: 'manual', credentials: 'same-origin' });
  if (response.type === 'opaqueredirect' || response.ok) return;
  const body: unknown = await response.json().catch(() => null);
  const message =
    errorText(body && typeof body === 'object' && 'error' in body ? body : null) || `The service answered ${response.status}.`;
  if (response.status === 404) throw { error: message, details: [{ path: 'email', message }] };
  throw body && typeof body === 'object' && 'error' in body ? body : { error: message };
}
