import { lookup as dnsLookup, type LookupAddress, type LookupOptions } from 'node:dns';
import ipaddr from 'ipaddr.js';
import type { LookupFunction } from 'node:net';
import { once } from './once.js';
import { answerPolicyOf, limitAnswer, OAUTH_MAX_ANSWER_BYTES, type AnswerPolicy, wantsEventStream } from './answer-limits.js';

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

/**
 * The one range that is public. The policy is an allow-list: an address is reached only when it is
 * public (`unicast`, ipaddr.js's name for "no special range") or private and allowed, so every
 * other range ipaddr.js knows or comes to know (reserved, benchmarking, site-local, ORCHID, AMT,
 * AS112, Teredo, link-local, multicast…) is refused without being listed here.
 */
const PUBLIC_RANGE = 'unicast';

/** Why some refused ranges are refused, where the range's name does not say it. */
const RANGE_NOTES: Record<string, string> = {
  teredo: ' (a Teredo tunnel reaches an IPv4 address that cannot be checked)',
};

/** The four bytes at `offsets` as an IPv4 address. */
function ipv4At(bytes: number[], offsets: readonly number[]): ipaddr.IPv4 {
  return new ipaddr.IPv4(offsets.map((offset) => bytes[offset] ?? 0));
}

/** Where RFC 6052 puts the IPv4 address for each prefix length of a NAT64 prefix (bit 64-71 is always zero). */
const NAT64_LAYOUTS = {
  48: [6, 7, 9, 10],
  56: [7, 9, 10, 11],
  64: [9, 10, 11, 12],
  96: [12, 13, 14, 15],
} as const;

/** The NAT64 prefix lengths a local-use prefix (64:ff9b:1::/48) may be cut at. */
const LOCAL_NAT64_LENGTHS = [48, 56, 64, 96] as const;

const WELL_KNOWN_NAT64 = ipaddr.IPv6.parse('64:ff9b::');

/**
 * The IPv4 addresses an IPv6 address delivers to when it embeds one, or undefined when it does
 * not. Such an address reaches its IPv4 address (through the host's own stack, a NAT64 or a 6to4
 * relay), so judging it by its IPv6 range would let `::ffff:127.0.0.1`, `::127.0.0.1` or
 * `64:ff9b::127.0.0.1` through as if public. The local-use NAT64 prefix (64:ff9b:1::/48) may be
 * cut at any RFC 6052 length, so every layout it allows is a candidate and all must pass.
 */
function embeddedIpv4s(address: ipaddr.IPv6): ipaddr.IPv4[] | undefined {
  const bytes = address.toByteArray();
  const range: string = address.range();
  // IPv4-mapped (::ffff:a.b.c.d) and IPv4-translated (::ffff:0:a.b.c.d, RFC 6145).
  if (range === 'ipv4Mapped' || range === 'rfc6145') return [ipv4At(bytes, NAT64_LAYOUTS[96])];
  // IPv4-compatible (::a.b.c.d, deprecated but still routed by some stacks): the first 96 bits zero,
  // other than :: and ::1, which are IPv6's own unspecified and loopback addresses.
  if (bytes.slice(0, 12).every((byte) => byte === 0) && range !== 'unspecified' && range !== 'loopback') {
    return [ipv4At(bytes, NAT64_LAYOUTS[96])];
  }
  if (range === 'rfc6052') {
    if (address.match(WELL_KNOWN_NAT64, 96)) return [ipv4At(bytes, NAT64_LAYOUTS[96])];
    return LOCAL_NAT64_LENGTHS.map((length) => ipv4At(bytes, NAT64_LAYOUTS[length]));
  }
  if (range === '6to4') return [ipv4At(bytes, [2, 3, 4, 5])];
  return undefined;
}

/** The address as the policy names it: RFC 5952 for IPv6, without a zone (which would hide a metadata address). */
function canonicalOf(address: ipaddr.IPv4 | ipaddr.IPv6): string {
  return address instanceof ipaddr.IPv6 ? new ipaddr.IPv6(address.parts).toRFC5952String() : address.toString();
}

/** Why one address (IPv4, or IPv6 that embeds none) may not be reached, by name and by range. */
function refusalOfAddress(address: ipaddr.IPv4 | ipaddr.IPv6, allowPrivate: boolean): string | undefined {
  const canonical = canonicalOf(address);
  if (METADATA_ADDRESSES.has(canonical)) return `${canonical} is a cloud metadata address`;
  const range: string = address.range();
  if (range === PUBLIC_RANGE) return undefined;
  if (PRIVATE_RANGES.has(range)) {
    return allowPrivate ? undefined : `${canonical} is a ${range} address (set MCP_ALLOW_PRIVATE_URLS=true to allow private addresses)`;
  }
  return `${canonical} is a ${range} address${RANGE_NOTES[range] ?? ''}`;
}

/**
 * Why an address may not be reached, or undefined when it may. Only public addresses are allowed,
 * and loopback and private ranges with `allowPrivate`; metadata addresses are refused by name, and
 * every other range (link-local, reserved, Teredo, …) always. IPv6 forms that embed an IPv4
 * address (mapped, compatible, NAT64, 6to4) are judged by that address.
 */
export function refusalOf(address: string, allowPrivate: boolean): string | undefined {
  if (!ipaddr.isValid(address)) return `${address} is not an IP address`;
  const parsed = ipaddr.parse(address);
  const embedded = parsed instanceof ipaddr.IPv6 ? embeddedIpv4s(parsed) : undefined;
  if (!embedded) return refusalOfAddress(parsed, allowPrivate);
  for (const inner of embedded) {
    const refusal = refusalOfAddress(inner, allowPrivate);
    if (refusal) return `${canonicalOf(parsed)} embeds an IPv4 address: ${refusal}`;
  }
  return undefined;
}

type LookupCallback = (error: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void;

/**
 * A `dns.lookup` that refuses disallowed addresses. Given to the HTTP agent's connector, it checks
 * the very addresses the socket connects to, so a name that resolves differently on the second
 * lookup (DNS rebinding) is caught too.
 */
function guardedLookup(allowPrivate: boolean) {
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
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    throw new UrlRefusedError(`only http and https URLs are allowed, not ${url.protocol}`);
  if (url.username || url.password) throw new UrlRefusedError('URLs may not carry credentials');
  // The URL parser already turned decimal, octal and hex IPv4 forms into dotted quads.
  const host = url.hostname.startsWith('[') ? url.hostname.slice(1, -1) : url.hostname;
  const addresses = ipaddr.isValid(host)
    ? [host]
    : await resolveAll(host).then(
        (list) => list.map((entry) => entry.address),
        (error: Error) => {
          throw new UnresolvableHostError(`cannot resolve ${host}: ${error.message}`, { cause: error });
        },
      );
  for (const address of addresses) {
    const refusal = refusalOf(address, allowPrivate);
    if (refusal) throw new UrlRefusedError(`refused ${url.host}: ${refusal}`);
  }
  return url;
}

type FetchLike = (url: string | URL, init?: RequestInit) => Promise<Response>;

/** What a request may carry to another origin it is redirected to: the protocol's own headers. */
const CROSS_ORIGIN_HEADERS = ['accept', 'content-type', 'mcp-protocol-version'];

/**
 * The headers of a request redirected to another origin: the connection's credentials (headers the
 * admin set, the OAuth bearer token), cookies and its MCP session are for the server they were
 * given to, so only the protocol's own headers go on, as browsers drop `Authorization` then.
 */
function protocolHeadersOf(headers: RequestInit['headers']): Headers {
  const given = new Headers(headers);
  const kept = new Headers();
  for (const name of CROSS_ORIGIN_HEADERS) {
    const value = given.get(name);
    if (value !== null) kept.set(name, value);
  }
  return kept;
}

const MAX_REDIRECTS = 5;

/** What the guarded fetch bounds: the answers it reads and the connections it opens. */
export interface GuardedFetchOptions {
  /** The largest JSON-RPC answer or SSE event (`MCP_MAX_RESPONSE_BYTES`; default 8 MiB, as the config's). */
  maxResponseBytes?: number;
  /** Open connections per origin, in each of the two pools (`MCP_MAX_CONNECTIONS_PER_ORIGIN`; default 32, as the config's). */
  maxConnectionsPerOrigin?: number;
}

export interface GuardedFetch {
  /** The MCP transports' fetch: answers to the protocol's requests limited to `maxResponseBytes`, others (OAuth) to 64 KiB. */
  fetch: FetchLike;
  /** The fetch of OAuth's own requests: every answer limited to 64 KiB. */
  oauthFetch: FetchLike;
  /** Any request, its answer limited to `maxResponseBytes` (a knowledge document fetched by its URL). */
  boundedFetch: FetchLike;
  close(): Promise<void>;
}

/** What fetch rejects with when a request fails: `TypeError('fetch failed')`, its cause the reason. */
const fetchFailed = (cause: unknown) => new TypeError('fetch failed', { cause });

/**
 * The answer as the transports get it, its body counted (`limitAnswer`). One no web Response can
 * hold (a status outside 200–599, which undici's fetch hands on, or a reason phrase or header the
 * Response refuses) fails as fetch fails, its body cancelled so that it does not hold its connection.
 */
async function answerOf(response: Response, policy: AnswerPolicy): Promise<Response> {
  try {
    if (response.status < 200 || response.status > 599) throw new RangeError(`status ${response.status} out of range`);
    return limitAnswer(response, policy);
  } catch (error) {
    await response.body?.cancel().catch(() => undefined);
    throw fetchFailed(error);
  }
}

/** A pool of connections and undici's fetch through it: redirects are answers, for the loop below to check. */
interface Pool {
  fetch: FetchLike;
  close(): Promise<void>;
}

/**
 * undici's own agent and fetch, by the paths of their modules (types/undici-parts.d.ts: its package
 * entry would also bring its mock agents, caches, WebSocket and proxy agents into the Lambda
 * bundles), loaded with the first request. Each pool's sockets resolve host names with `lookup`
 * and number at most `connections` per origin (requests beyond wait in undici's queue).
 */
async function loadPools(lookup: LookupFunction, connections: number): Promise<{ requests: Pool; streams: Pool }> {
  const [{ default: Agent }, { fetch }] = await Promise.all([
    import('undici/lib/dispatcher/agent.js'),
    import('undici/lib/web/fetch/index.js'),
  ]);
  const pool = (): Pool => {
    const dispatcher = new Agent({ connect: { lookup }, connections });
    return {
      fetch: (url, init) => fetch(url, { ...(init as object), redirect: 'manual', dispatcher }) as unknown as Promise<Response>,
      close: () => dispatcher.close(),
    };
  };
  return { requests: pool(), streams: pool() };
}

/**
 * The fetch the MCP transports use: every URL, and every redirect target, is checked against the
 * policy before it is requested, and connections go through undici's agent, whose DNS lookup
 * refuses disallowed addresses (loaded with the first request). Answers are counted as they are
 * read and cut past their limit (`answer-limits.ts`); one no Response can hold fails (`answerOf`).
 *
 * Connections to one origin are pooled with a cap; requests beyond it wait in undici's queue (their
 * timeout still runs). Event streams have a pool of their own: each session's stream holds a
 * connection for the session's life, so with one pool 32 sessions to a server would leave none of
 * its calls a connection. Past the cap a session's stream waits (its server's notifications with it).
 */
export function createGuardedFetch(allowPrivate: boolean, options: GuardedFetchOptions = {}): GuardedFetch {
  const maxResponseBytes = options.maxResponseBytes ?? 8 * 1024 * 1024;
  const connections = options.maxConnectionsPerOrigin ?? 32;
  // The pools on their way or made: `close` waits for ones still loading, so none is left open.
  let loading: Promise<{ requests: Pool; streams: Pool }> | undefined;
  const load = once(() => loadPools(guardedLookup(allowPrivate) as LookupFunction, connections));
  const connect = () => (loading = load());
  const guardedFetch = async (input: string | URL, init: RequestInit | undefined, policy: AnswerPolicy) => {
    let url = await assertUrlAllowed(input, allowPrivate);
    const agents = await connect();
    const { fetch } = wantsEventStream(init) ? agents.streams : agents.requests;
    let request: RequestInit = { ...init, redirect: 'manual' };
    for (let hop = 0; ; hop += 1) {
      const response = await fetch(url, request);
      const location = response.headers.get('location');
      if (response.status < 300 || response.status >= 400 || !location) return answerOf(response, policy);
      if (init?.redirect === 'manual' || init?.redirect === 'error') return answerOf(response, policy);
      // Its origin only: the path or the query can hold a token, and this message is logged and stored.
      if (hop >= MAX_REDIRECTS) throw new UrlRefusedError(`too many redirects from ${new URL(input).origin}`);
      await response.body?.cancel();
      const from = url;
      url = await assertUrlAllowed(new URL(location, url), allowPrivate);
      if (url.origin !== from.origin) request = { ...request, headers: protocolHeadersOf(request.headers) };
      // 303 (and 301/302 after a POST, as browsers do) become a GET without a body.
      if (response.status === 303 || ((response.status === 301 || response.status === 302) && request.method === 'POST')) {
        request = { ...request, method: 'GET', body: undefined };
      }
    }
  };
  const oauth: AnswerPolicy = { limit: { kind: 'oauth', bytes: OAUTH_MAX_ANSWER_BYTES } };
  return {
    fetch: (input, init) => guardedFetch(input, init, answerPolicyOf(init, maxResponseBytes)),
    oauthFetch: (input, init) => guardedFetch(input, init, oauth),
    boundedFetch: (input, init) => guardedFetch(input, init, { limit: { kind: 'mcp', bytes: maxResponseBytes } }),
    // Nothing to close before the first request (nor when the agents failed to load).
    close: async () => {
      const agents = await loading?.catch(() => undefined);
      await Promise.all([agents?.requests.close(), agents?.streams.close()]);
    },
  };
}
