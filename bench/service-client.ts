/*
 * What the black-box benchmarks start `npm start` with and talk to it through.
 */

/** The service's per-tenant limits out of the way: the benchmarks measure the service, not its refusals. */
export const LIMITS_OUT_OF_THE_WAY = {
  QUERY_RATE_LIMIT_PER_MINUTE: '1000000',
  ORG_REQUEST_RATE_LIMIT_PER_MINUTE: '10000000',
  KEY_REQUEST_RATE_LIMIT_PER_MINUTE: '10000000',
};

/** POSTs JSON as the signed-in `cookie`; answers the JSON and the response's headers, and throws on a status of 300 or more. */
export function poster(url: string, cookie: string) {
  return async (path: string, body: unknown) => {
    const response = await fetch(`${url}${path}`, {
      method: 'POST',
      headers: { cookie, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    const json = (await response.json()) as Record<string, unknown>;
    if (response.status >= 300) throw new Error(`${path} answered ${response.status}: ${JSON.stringify(json)}`);
    return { json, headers: response.headers };
  };
}
