import { toReqRes } from 'fetch-to-node';

/*
 * oidc-provider is a Koa app: it reads Node requests. A web Request is made into one
 * (fetch-to-node), with the socket Koa asks about (whether the connection was TLS, the peer's
 * address), which a made-up request has not.
 */
export function nodeRequestOf(request: Request, issuer: string, remoteAddress?: string) {
  const { req, res } = toReqRes(request);
  Object.defineProperty(req, 'socket', { value: { encrypted: issuer.startsWith('https:'), remoteAddress } });
  return { req, res };
}
