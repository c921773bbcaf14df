/**
 * The service's public origin as a request meets it, for the links and addresses an answer names:
 * the configured one (`PUBLIC_BASE_URL`), else the host the front door forwarded (`X-Forwarded-Host`,
 * set by its viewer function on the streamed routes: the stream function cannot be given the
 * distribution's address, lib/front-door.ts), else the request's own. A forged header only shapes
 * the answer to the request that carries it.
 */
export function publicOriginOf(publicBaseUrl: string | undefined, request: Request): string {
  if (publicBaseUrl) return publicBaseUrl;
  const forwardedHost = request.headers.get('x-forwarded-host');
  if (forwardedHost && /^[A-Za-z0-9.-]+(:\d+)?$/.test(forwardedHost)) return `https://${forwardedHost}`;
  return new URL(request.url).origin;
}
