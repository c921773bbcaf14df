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

/** The typed fetch client: same origin, so the session cookie goes with every request. */
export const api = createFetchClient<paths>({ baseUrl: window.location.origin, credentials: 'same-origin' });
api.use(noticeSessionLoss);

/** React Query hooks over the same client: `$api.useQuery('get', '/api/workspaces')`. */
export const $api = createQueryHooks(api);

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
