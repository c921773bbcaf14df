import { sameSecret } from './compare.js';
import type { Context } from 'hono';
import { getConnInfo } from 'hono/aws-lambda';
import ipaddr from 'ipaddr.js';

/**
 * The header CloudFront adds to every request it sends to either origin (the HTTP API, the stream
 * function's URL), holding the stack's origin secret (lib/front-door.ts). CloudFront replaces a
 * header of this name that the viewer sent.
 */
export const ORIGIN_VERIFY_HEADER = 'x-origin-verify';

/** The viewer's address and source port, added by CloudFront (its origin request policy forwards it). */
const VIEWER_ADDRESS_HEADER = 'cloudfront-viewer-address';

/**
 * The IP address in a `CloudFront-Viewer-Address` value: `ip:port`, an IPv6 address unbracketed
 * (`2001:db8::1:443`; a bracketed one is taken too). Undefined when the value is not that.
 */
export function viewerAddressOf(header: string | undefined): string | undefined {
  const value = header?.trim() ?? '';
  const colon = value.lastIndexOf(':');
  const port = value.slice(colon + 1);
  if (colon <= 0 || !/^\d{1,5}$/.test(port) || Number(port) > 65_535) return undefined;
  const host = value.slice(0, colon).replace(/^\[(.*)\]$/, '$1');
  if (ipaddr.IPv4.isValidFourPartDecimal(host)) return host;
  if (host.includes(':') && ipaddr.IPv6.isValid(host)) return host;
  return undefined;
}

/** The event's source IP (API Gateway's or the function URL's), or undefined outside a Lambda event. */
function sourceAddressOf(c: Context): string | undefined {
  try {
    return getConnInfo(c).remote.address;
  } catch {
    return undefined;
  }
}

/**
 * The client address of a request, for the per-address limits of sign-up and login. Behind
 * CloudFront the request's source address is an edge server's, shared by all its viewers;
 * CloudFront's `CloudFront-Viewer-Address` names the viewer, but anyone calling the origin
 * directly could send that header too. So it is trusted only on a request that carries the origin
 * secret, which only CloudFront adds; any other request (a direct one, a wrong or missing secret,
 * a malformed viewer address) counts by `sourceAddress`: the Lambda event's source IP by default,
 * the socket's peer in the agent service on Fargate (functions/agent-service/main.ts).
 */
export function awsClientAddress(
  originSecret: string | undefined,
  sourceAddress: (c: Context) => string | undefined = sourceAddressOf,
): (c: Context) => string | undefined {
  return (c) => {
    const proof = c.req.header(ORIGIN_VERIFY_HEADER);
    if (originSecret && proof !== undefined && sameSecret(proof, originSecret)) {
      const viewer = viewerAddressOf(c.req.header(VIEWER_ADDRESS_HEADER));
      if (viewer) return viewer;
    }
    return sourceAddress(c);
  };
}
