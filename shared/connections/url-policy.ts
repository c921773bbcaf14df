import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import { Agent, fetch as undiciFetch, type RequestInit as UndiciRequestInit } from 'undici';

/** An MCP URL that the policy does not allow, with the reason. */
export class UrlRefusedError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UrlRefusedError';
  }
}

/** A host name that does not resolve: the server is unreachable (not refused by the policy). */
export class UnresolvableHostError extends Error {
  constructor(message: string, options?: ErrorOptions) {
    super(message, options);
    this.name = 'UnresolvableHostError';
  }
}

/** Metadata endpoints that are refused by name whatever their range (ECS task metadata, EC2 IPv6 IMDS). */
const METADATA_ADDRESSES = new Set(['169.254.169.254', '169.254.170.2', 'fd00:ec2::254']);

/** Ranges that are private to a network: allowed only with MCP_ALLOW_PRIVATE_URLS. */
const PRIVATE_RANGES = new Set(['loopback', 'private', 'uniqueLocal', 'carrierGradeNat']);

/** Ranges that are never a server: always refused. */
const NEVER_RANGES = new Set(['unspecified', 'broadcast', 'multicast', 'linkLocal', 'reserved']);

/** The IPv4 address an IPv6 address carries (IPv4-mapped, NAT64, 6to4), if any. */
function embeddedIpv4(address: ipaddr.IPv6): ipaddr.IPv4 | undefined {
  if (address.isIPv4MappedAddress()) return address.toIPv4Address();
  const range = address.range();
  const bytes = address.toByteArray();
  if (range === 'rfc6052' || range === 'rfc6145') return ipaddr.fromByteArray(bytes.slice(12, 16)) as ipaddr.IPv4;
  if (range === '6to4') return ipaddr.fromByteArray(bytes.slice(2, 6)) as ipaddr.IPv4;
  return undefined;
}

/**
 * Why an address may not be reached, or undefined when it may. Link-local and metadata addresses
 * are always refused (they reach the cloud's credential endpoints); loopback and private ranges
 * unless `allowPrivate`. IPv6 forms that embed an IPv4 address are judged by that address.
 */
export function refusalOf(address: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6') {
    const inner = embeddedIpv4(parsed as ipaddr.IPv6);
    if (inner) parsed = inner;
  }
  const normalized = parsed.toNormalizedString();
  const canonical = parsed.kind() === 'ipv6' ? (parsed as ipaddr.IPv6).toRFC5952String() : normalized;
  if (METADATA_ADDRESSES.has(canonical)) return `${canonical} is a cloud metadata address`;
  const range = parsed.range();
  if (NEVER_RANGES.has(range)) return `${canonical} is a ${range} address`;
  if (PRIVATE_RANGES.has(range) && !allowPrivate) {
    return `${canonical} is a ${range} address (set MCP_ALLOW_PRIVATE_URLS=true to allow private addresses)`;
  }
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` that refuses disallowed addresses. Given to the HTTP agent's connector, it checks
 * the very addresses the socket connects to, so a name that resolves differently on the second
 * lookup (DNS rebinding) is caught too.
 */
export function guardedLookup(allowPrivate: boolean) {
  return (hostname: string, options: LookupOptions, callback: LookupCallback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      const list = addresses as LookupAddress[];
      for (const entry of list) {
        const refusal = refusalOf(entry.address, allowPrivate);
        if (refusal) return callback(Object.assign(new UrlRefusedError(`refused ${hostname}: ${refusal}`), { code: 'EREFUSED_URL' }), []);
      }
      if (options.all) return callback(null, list);
      const first = list[0];
      if (!first) return callback(Object.assign(new Error(`no address for ${hostname}`), { code: 'ENOTFOUND' }), []);
      return callback(null, first.address, first.family);
    });
  };
}

function resolveAll(hostname: string): Promise<LookupAddress[]> {
  return new Promise((resolve, reject) =>
    dnsLookup(hostname, { all: true }, (error, addresses) => (error ? reject(error) : resolve(addresses))),
  );
}

/**
 * Checks an MCP URL before any request: http(s) only, no credentials in it, and every address its
 * host is or resolves to allowed. Throws `UrlRefusedError` with the reason, or
 * `UnresolvableHostError` when the host name does not resolve.
 */
export async function assertUrlAllowed(raw: string | URL, allowPrivate: boolean): Promise<URL> {
  let url: URL;
  try {
    url = new URL(raw);
  } catch (error) {
    throw new UrlRefusedError(`not a valid URL: ${String(raw)}`, { cause: error });
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new UrlRefusedError(`only http and https URLs are allowed, not ${url.protocol}`);
  if (url.username || url.password) throw new UrlRefusedError('URLs may not carry credentials');
  // The URL parser already turned decimal, octal and hex IPv4 forms into dotted quads.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const addresses = ipaddr.isValid(host) ? [host] : await resolveAll(host).then((list) => list.map((entry) => entry.address), (error: Error) => {
    throw new UnresolvableHostError(`cannot resolve ${host}: ${error.message}`, { cause: error });
  });
  for (const address of addresses) {
    const refusal = refusalOf(address, allowPrivate);
    if (refusal) throw new UrlRefusedError(`refused ${url.host}: ${refusal}`);
  }
  return url;
}

export type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

const MAX_REDIRECTS = 5;

/**
 * The fetch the MCP transports use: every URL, and every redirect target, is checked against the
 * policy before it is requested, and connections go through an agent whose DNS lookup refuses
 * disallowed addresses.
 */
export function createGuardedFetch(allowPrivate: boolean): { fetch: FetchLike; close(): Promise<void> } {
  const agent = new Agent({ connect: { lookup: guardedLookup(allowPrivate) } });
  const guardedFetch: FetchLike = async (input, init) => {
    let url = await assertUrlAllowed(input, allowPrivate);
    let request = { ...(init as UndiciRequestInit), redirect: 'manual' as const, dispatcher: agent };
    for (let hop = 0; ; hop += 1) {
      const response = await undiciFetch(url, request);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return response as unknown as Response;
      if (init?.redirect === 'manual' || init?.redirect === 'error') return response as unknown as Response;
      if (hop >= MAX_REDIRECTS) throw new UrlRefusedError(`too many redirects from ${String(input)}`);
      await response.body?.cancel();
      url = await assertUrlAllowed(new URL(location, url), allowPrivate);
      // 303 (and 301/302 after a POST, as browsers do) become a GET without a body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST')) {
        request = { ...request, method: 'GET', body: undefined };
      }
    }
  };
  return { fetch: guardedFetch, close: () => agent.close() };
}
