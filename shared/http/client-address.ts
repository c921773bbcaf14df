import type { Context, MiddlewareHandler } from 'hono';
import ipaddr from 'ipaddr.js';
import type { AppEnv } from './router.js';

/** How a runtime tells the address a request came from (the socket's peer, or API Gateway's source IP). */
export type ClientAddressOf = (c: Context<AppEnv>) => string | undefined;

/**
 * The address that per-address limits count: an IPv4 address as is (IPv4-mapped IPv6 unwrapped),
 * an IPv6 address by its /64 (one subscriber's usual allocation, so rotating through it does not
 * escape a limit). Anything unreadable counts as one shared "unknown".
 */
function throttleAddress(raw: string | undefined): string {
  if (!raw || !ipaddr.isValid(raw)) return 'unknown';
  const address = ipaddr.process(raw);
  if (address.kind() === 'ipv4') return address.toString();
  const parts = (address as ipaddr.IPv6).parts.slice(0, 4).map((part) => part.toString(16));
  return `${parts.join(':')}::/64`;
}

/** Sets `clientAddress` on the context for the limits of sign-up and login. Never read from a header a client controls. */
export function recordClientAddress(addressOf: ClientAddressOf | undefined): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    c.set('clientAddress', throttleAddress(addressOf?.(c)));
    return next();
  };
}
