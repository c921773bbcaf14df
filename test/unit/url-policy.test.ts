import diagnosticsChannel from 'node:diagnostics_channel';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import {
  UnresolvableHostError,
  UrlRefusedError,
  assertUrlAllowed,
  createGuardedFetch,
  refusalOf,
} from '../../shared/platform/url-policy.js';

const METADATA_URL = 'http://169.254.169.254/latest/meta-data/';

describe('refusalOf', () => {
  const alwaysRefused: [string, RegExp][] = [
    ['169.254.169.254', /169\.254\.169\.254 is a cloud metadata address/],
    ['169.254.170.2', /169\.254\.170\.2 is a cloud metadata address/],
    ['169.254.0.1', /169\.254\.0\.1 is a linkLocal address/],
    ['169.254.1.2', /169\.254\.1\.2 is a linkLocal address/],
    ['169.254.255.254', /linkLocal/],
    ['fd00:ec2::254', /fd00:ec2::254 is a cloud metadata address/],
    ['fe80::1', /fe80::1 is a linkLocal address/],
    ['0.0.0.0', /0\.0\.0\.0 is a unspecified address/],
    ['::', /unspecified/],
    ['224.0.0.1', /224\.0\.0\.1 is a multicast address/],
    ['ff02::1', /multicast/],
    ['255.255.255.255', /broadcast/],
    // IPv6 forms that carry an IPv4 address are judged by that address.
    ['::ffff:169.254.169.254', /169\.254\.169\.254 is a cloud metadata address/],
    ['::ffff:a9fe:a9fe', /169\.254\.169\.254 is a cloud metadata address/],
    ['::ffff:169.254.170.2', /169\.254\.170\.2 is a cloud metadata address/],
    ['::ffff:169.254.7.7', /169\.254\.7\.7 is a linkLocal address/],
    ['64:ff9b::a9fe:a9fe', /169\.254\.169\.254 is a cloud metadata address/],
    ['2002:a9fe:a9fe::', /169\.254\.169\.254 is a cloud metadata address/],
  ];

  it.each(alwaysRefused)('always refuses %s, even when private addresses are allowed', (address, reason) => {
    for (const allowPrivate of [true, false]) {
      const refusal = refusalOf(address, allowPrivate);
      expect(refusal, `${address} with allowPrivate=${allowPrivate}`).toMatch(reason);
      // Never the private-address reason: setting the variable would not help.
      expect(refusal).not.toMatch(/MCP_ALLOW_PRIVATE_URLS/);
    }
  });

  const privateAddresses: [string, string][] = [
    ['127.0.0.1', 'loopback'],
    ['127.1.2.3', 'loopback'],
    ['::1', 'loopback'],
    ['::ffff:127.0.0.1', 'loopback'],
    ['10.0.0.5', 'private'],
    ['172.16.3.4', 'private'],
    ['192.168.1.1', 'private'],
    ['::ffff:10.0.0.5', 'private'],
    ['100.64.0.1', 'carrierGradeNat'],
    ['fc00::1', 'uniqueLocal'],
    ['fd12:3456::1', 'uniqueLocal'],
  ];

  it.each(privateAddresses)('refuses %s (%s) unless private addresses are allowed', (address, range) => {
    const refusal = refusalOf(address, false);
    expect(refusal).toContain(`is a ${range} address`);
    expect(refusal).toContain('MCP_ALLOW_PRIVATE_URLS');
    expect(refusalOf(address, true)).toBeUndefined();
  });

  it.each(['8.8.8.8', '1.1.1.1', '93.184.216.34', '2606:4700:4700::1111', '::ffff:8.8.8.8'])('allows the public address %s', (address) => {
    expect(refusalOf(address, false)).toBeUndefined();
    expect(refusalOf(address, true)).toBeUndefined();
  });

  // IPv6 forms that reach an IPv4 address are judged by it, and ranges that are neither public nor
  // private are refused: none of these may reach loopback or a private network when private
  // addresses are not allowed.
  const attacks: [string, RegExp][] = [
    ['::7f00:1', /::7f00:1 embeds an IPv4 address: 127\.0\.0\.1 is a loopback address/],
    ['::127.0.0.1', /127\.0\.0\.1 is a loopback address/],
    ['::10.0.0.1', /10\.0\.0\.1 is a private address/],
    ['::a00:1', /::a00:1 embeds an IPv4 address: 10\.0\.0\.1 is a private address/],
    ['64:ff9b::7f00:1', /64:ff9b::7f00:1 embeds an IPv4 address: 127\.0\.0\.1 is a loopback address/],
    ['64:ff9b::10.1.2.3', /10\.1\.2\.3 is a private address/],
    ['2002:7f00:1::', /2002:7f00:1:: embeds an IPv4 address: 127\.0\.0\.1 is a loopback address/],
    ['2002:a00:1::1', /10\.0\.0\.1 is a private address/],
    ['::ffff:0:7f00:1', /127\.0\.0\.1 is a loopback address/],
  ];

  it.each(attacks)('refuses %s, an IPv6 form of a private IPv4 address, unless private addresses are allowed', (address, reason) => {
    const refusal = refusalOf(address, false);
    expect(refusal).toMatch(reason);
    expect(refusal).toContain('MCP_ALLOW_PRIVATE_URLS');
  });

  const neverAllowed: [string, string][] = [
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'teredo'],
    ['2001::1', 'teredo'],
    ['fec0::1', 'deprecatedSiteLocal'],
    ['2001:db8::1', 'reserved'],
    ['3fff::1', 'reserved'],
    ['2001:2::1', 'benchmarking'],
    ['2001:3::1', 'amt'],
    ['2001:4:112::1', 'as112v6'],
    ['2001:20::1', 'orchid2'],
    ['100::1', 'discard'],
    ['5f00::1', 'segmentRouting'],
    ['192.0.2.1', 'reserved'],
    ['198.18.0.1', 'reserved'],
    ['240.0.0.1', 'reserved'],
    ['192.175.48.1', 'as112'],
    ['192.52.193.1', 'amt'],
    ['fe80::1', 'linkLocal'],
    ['::ffff:169.254.1.1', 'linkLocal'],
    ['0.0.0.1', 'unspecified'],
    ['::2', 'unspecified'],
  ];

  it.each(neverAllowed)('always refuses %s (%s), which is neither public nor private', (address, range) => {
    for (const allowPrivate of [false, true]) {
      const refusal = refusalOf(address, allowPrivate);
      expect(refusal, `${address} with allowPrivate=${allowPrivate}`).toContain(`is a ${range} address`);
      expect(refusal).not.toMatch(/MCP_ALLOW_PRIVATE_URLS/);
    }
  });

  it('says why Teredo is refused', () => {
    expect(refusalOf('2001:0:4136:e378:8000:63bf:3fff:fdd2', true)).toBe(
      '2001:0:4136:e378:8000:63bf:3fff:fdd2 is a teredo address (a Teredo tunnel reaches an IPv4 address that cannot be checked)',
    );
  });

  it('judges a local-use NAT64 address by every place its IPv4 address may be', () => {
    // 64:ff9b:1::/48 may be cut at /48, /56, /64 or /96. This is 127.0.0.1 in the /64 layout and
    // 1.1.1.1 (public) in the /96 one, so every layout must pass.
    expect(refusalOf('64:ff9b:1:0:7f:0:101:101', false)).toMatch(/embeds an IPv4 address: /);
    expect(refusalOf('64:ff9b:1:0:7f:0:101:101', true)).toMatch(/embeds an IPv4 address: /);
    expect(refusalOf('64:ff9b:1::7f00:1', false)).toMatch(/embeds an IPv4 address/);
    expect(refusalOf('64:ff9b:1::7f00:1', true)).toMatch(/embeds an IPv4 address/);
  });

  it.each(['64:ff9b::808:808', '64:ff9b::8.8.8.8', '2002:808:808::1', '::808:808', '::ffff:0:808:808'])(
    'allows %s, an IPv6 form of a public IPv4 address',
    (address) => {
      expect(refusalOf(address, false)).toBeUndefined();
      expect(refusalOf(address, true)).toBeUndefined();
    },
  );

  it.each(['10.0.0.1', '::a00:1', '::7f00:1', '64:ff9b::7f00:1', '2002:c0a8:101::', 'fd00::1', '100.64.1.1'])(
    'allows the private address %s when private addresses are allowed',
    (address) => {
      expect(refusalOf(address, true)).toBeUndefined();
    },
  );

  it('refuses a metadata address whatever zone it carries', () => {
    expect(refusalOf('fd00:ec2::254%eth0', true)).toBe('fd00:ec2::254 is a cloud metadata address');
  });

  it('refuses what is not an IP address', () => {
    expect(refusalOf('metadata.google.internal', true)).toBe('metadata.google.internal is not an IP address');
    expect(refusalOf('', true)).toMatch(/not an IP address/);
  });
});

describe('assertUrlAllowed', () => {
  async function refusal(url: string, allowPrivate: boolean): Promise<UrlRefusedError> {
    const error = await assertUrlAllowed(url, allowPrivate).then(
      (allowed) => {
        throw new Error(`${url} was allowed as ${String(allowed)}`);
      },
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(UrlRefusedError);
    return error as UrlRefusedError;
  }

  it.each([
    // The WHATWG parser normalizes these to 169.254.169.254 before the policy sees them.
    'http://169.254.169.254/latest/meta-data/',
    'http://2852039166/',
    'http://0xa9fea9fe/',
    'http://0251.0376.0251.0376/',
    'http://169.254.43518/',
    'http://[::ffff:169.254.169.254]/',
    'http://[::ffff:a9fe:a9fe]/mcp',
    'https://169.254.169.254:8443/mcp',
  ])('always refuses the metadata address written as %s', async (url) => {
    for (const allowPrivate of [true, false]) {
      const error = await refusal(url, allowPrivate);
      expect(error.message).toContain('169.254.169.254 is a cloud metadata address');
    }
  });

  it.each([
    ['http://169.254.170.2/v2/credentials', '169.254.170.2 is a cloud metadata address'],
    ['http://[fd00:ec2::254]/latest/', 'fd00:ec2::254 is a cloud metadata address'],
    ['http://[fe80::1]/', 'fe80::1 is a linkLocal address'],
    ['http://0.0.0.0:3000/', '0.0.0.0 is a unspecified address'],
    ['http://0/', '0.0.0.0 is a unspecified address'],
    ['http://224.0.0.1/', '224.0.0.1 is a multicast address'],
    ['http://169.254.10.20/', '169.254.10.20 is a linkLocal address'],
  ])('always refuses %s', async (url, reason) => {
    for (const allowPrivate of [true, false]) {
      expect((await refusal(url, allowPrivate)).message).toContain(reason);
    }
  });

  it.each([
    'http://127.0.0.1:8080/mcp',
    'http://[::1]:8080/mcp',
    'http://10.0.0.5/mcp',
    'http://172.16.3.4/mcp',
    'http://192.168.1.1/mcp',
    'http://100.64.0.1/mcp',
    'http://[fc00::1]/mcp',
    'http://localhost/',
    'http://2130706433/',
  ])('refuses the private URL %s unless private addresses are allowed', async (url) => {
    const error = await refusal(url, false);
    expect(error.message).toContain('MCP_ALLOW_PRIVATE_URLS');
    const allowed = await assertUrlAllowed(url, true);
    expect(allowed).toBeInstanceOf(URL);
    expect(allowed.href).toBe(new URL(url).href);
  });

  it.each([
    ['http://[::7f00:1]:8080/mcp', '127.0.0.1 is a loopback address'],
    ['http://[::127.0.0.1]:8080/mcp', '127.0.0.1 is a loopback address'],
    ['http://[::10.0.0.1]/mcp', '10.0.0.1 is a private address'],
    ['http://[64:ff9b::7f00:1]/mcp', '127.0.0.1 is a loopback address'],
    ['http://[2002:7f00:1::]/mcp', '127.0.0.1 is a loopback address'],
  ])('refuses %s, an IPv6 form of a private IPv4 address, unless private addresses are allowed', async (url, reason) => {
    const error = await refusal(url, false);
    expect(error.message).toContain(reason);
    expect(error.message).toContain('MCP_ALLOW_PRIVATE_URLS');
  });

  it.each([
    ['http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/mcp', 'is a teredo address'],
    ['http://[fec0::1]/mcp', 'fec0::1 is a deprecatedSiteLocal address'],
    ['http://[::ffff:169.254.169.254]:80/', '169.254.169.254 is a cloud metadata address'],
    ['http://192.0.2.10/mcp', '192.0.2.10 is a reserved address'],
  ])('always refuses %s', async (url, reason) => {
    for (const allowPrivate of [true, false]) {
      expect((await refusal(url, allowPrivate)).message).toContain(reason);
    }
  });

  it('allows public addresses and answers the parsed URL', async () => {
    const allowed = await assertUrlAllowed('https://8.8.8.8/mcp?x=1', false);
    expect(allowed.href).toBe('https://8.8.8.8/mcp?x=1');
    expect((await assertUrlAllowed(new URL('http://[2606:4700:4700::1111]/mcp'), false)).hostname).toBe('[2606:4700:4700::1111]');
  });

  it.each([
    ['file:///etc/passwd', 'file:'],
    ['ftp://8.8.8.8/pub', 'ftp:'],
    ['gopher://8.8.8.8/', 'gopher:'],
    ['data:text/plain,hello', 'data:'],
  ])('refuses the scheme of %s', async (url, scheme) => {
    for (const allowPrivate of [true, false]) {
      expect((await refusal(url, allowPrivate)).message).toBe(`only http and https URLs are allowed, not ${scheme}`);
    }
  });

  it.each(['http://user:secret@8.8.8.8/mcp', 'http://user@8.8.8.8/mcp', 'https://:secret@8.8.8.8/'])(
    'refuses credentials in %s',
    async (url) => {
      expect((await refusal(url, true)).message).toBe('URLs may not carry credentials');
    },
  );

  it('refuses what is not a URL', async () => {
    const error = await refusal('not a url', true);
    expect(error.message).toBe('not a valid URL: not a url');
    expect(error.cause).toBeInstanceOf(TypeError);
  });

  it('reports a host that does not resolve as unresolvable, not as refused', async () => {
    const error = await assertUrlAllowed('http://no-such-mcp-server.invalid/mcp', true).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UnresolvableHostError);
    expect(error).not.toBeInstanceOf(UrlRefusedError);
    expect((error as Error).message).toMatch(/^cannot resolve no-such-mcp-server\.invalid: /);
  });
});

describe('createGuardedFetch', () => {
  let server: Server;
  let origin: string;
  // Another origin (same host, another port), and the headers each server last received.
  let other: Server;
  let otherOrigin: string;
  const headersAt: Record<string, Record<string, unknown>> = {};
  const served: string[] = [];
  const guarded = createGuardedFetch(true);
  const strict = createGuardedFetch(false);

  // Every request undici creates and every connection it opens, whatever the dispatcher.
  const created: string[] = [];
  const connecting: string[] = [];
  const onCreate = (message: unknown) => {
    const { request } = message as { request: { origin: string; path: string } };
    created.push(`${request.origin}${request.path}`);
  };
  const onConnect = (message: unknown) => {
    const { connectParams } = message as { connectParams: { hostname: string; port: string } };
    connecting.push(`${connectParams.hostname}:${connectParams.port}`);
  };

  beforeAll(async () => {
    server = createServer((req, res) => {
      served.push(`${req.method} ${req.url}`);
      if (req.url === '/to-metadata') return void res.writeHead(307, { location: METADATA_URL }).end();
      if (req.url === '/to-metadata-decimal') return void res.writeHead(302, { location: 'http://2852039166/latest/' }).end();
      if (req.url === '/to-local') return void res.writeHead(307, { location: '/final?from=redirect' }).end();
      if (req.url === '/to-other') return void res.writeHead(307, { location: `${otherOrigin}/elsewhere` }).end();
      if (req.url?.startsWith('/loop')) return void res.writeHead(307, { location: '/loop' }).end();
      if (req.url === '/see-other') return void res.writeHead(303, { location: '/final' }).end();
      if (req.url?.startsWith('/final')) {
        headersAt.final = req.headers;
        const chunks: Buffer[] = [];
        req.on('data', (chunk: Buffer) => chunks.push(chunk));
        req.on('end', () =>
          res.writeHead(200, { 'content-type': 'text/plain' }).end(`final ${req.method} ${Buffer.concat(chunks).toString('utf8')}`),
        );
        return;
      }
      res.writeHead(404).end('not found');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    other = createServer((req, res) => {
      headersAt.other = req.headers;
      req.resume();
      req.on('end', () => res.writeHead(200, { 'content-type': 'text/plain' }).end('elsewhere'));
    });
    await new Promise<void>((resolve) => other.listen(0, '127.0.0.1', resolve));
    otherOrigin = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
    diagnosticsChannel.subscribe('undici:request:create', onCreate);
    diagnosticsChannel.subscribe('undici:client:beforeConnect', onConnect);
  });

  afterAll(async () => {
    diagnosticsChannel.unsubscribe('undici:request:create', onCreate);
    diagnosticsChannel.unsubscribe('undici:client:beforeConnect', onConnect);
    await guarded.close();
    await strict.close();
    for (const each of [server, other]) {
      each.closeAllConnections();
      await new Promise<void>((resolve) => each.close(() => resolve()));
    }
  });

  beforeEach(() => {
    served.length = 0;
    created.length = 0;
    connecting.length = 0;
  });
  afterEach(() => {
    // Nothing, in any test, was ever requested of or connected to a link-local address.
    expect(created.filter((url) => url.includes('169.254.'))).toEqual([]);
    expect(connecting.filter((host) => host.startsWith('169.254.'))).toEqual([]);
  });

  it('refuses a redirect to the metadata address before connecting to it', async () => {
    // A fresh agent, so its one connection (to the local server) shows in the connect log.
    const fresh = createGuardedFetch(true);
    try {
      const error = await fresh.fetch(`${origin}/to-metadata`).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(UrlRefusedError);
      expect((error as Error).message).toBe('refused 169.254.169.254: 169.254.169.254 is a cloud metadata address');
    } finally {
      await fresh.close();
    }
    expect(served).toEqual(['GET /to-metadata']);
    expect(created).toEqual([`${origin}/to-metadata`]);
    expect(connecting).toEqual([`127.0.0.1:${new URL(origin).port}`]);
  });

  it('refuses a redirect to the metadata address written in decimal, for a POST too', async () => {
    const error = await guarded
      .fetch(`${origin}/to-metadata-decimal`, { method: 'POST', body: '{}', headers: { 'content-type': 'application/json' } })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UrlRefusedError);
    expect((error as Error).message).toContain('169.254.169.254 is a cloud metadata address');
    expect(served).toEqual(['POST /to-metadata-decimal']);
  });

  it('follows a redirect to another path of the same server', async () => {
    const response = await guarded.fetch(`${origin}/to-local`);
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('final GET ');
    expect(served).toEqual(['GET /to-local', 'GET /final?from=redirect']);
  });

  it('keeps the method and body on a 307 and turns a 303 into a GET', async () => {
    const kept = await guarded.fetch(`${origin}/to-local`, { method: 'POST', body: 'payload' });
    expect(await kept.text()).toBe('final POST payload');
    const seeOther = await guarded.fetch(`${origin}/see-other`, { method: 'POST', body: 'payload' });
    expect(await seeOther.text()).toBe('final GET ');
    expect(served).toEqual(['POST /to-local', 'POST /final?from=redirect', 'POST /see-other', 'GET /final']);
  });

  it("keeps a connection's credentials to its own origin: a redirect elsewhere carries only the protocol's headers", async () => {
    const headers = {
      authorization: 'Bearer tenant-secret',
      'x-api-key': 'tenant-key',
      cookie: 'sid=1',
      'mcp-session-id': 'session-1',
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
    };
    const same = await guarded.fetch(`${origin}/to-local`, { method: 'POST', headers, body: '{}' });
    expect(await same.text()).toBe('final POST {}');
    expect(headersAt.final).toMatchObject({ authorization: 'Bearer tenant-secret', 'x-api-key': 'tenant-key' });

    const elsewhere = await guarded.fetch(`${origin}/to-other`, { method: 'POST', headers, body: '{}' });
    expect(await elsewhere.text()).toBe('elsewhere');
    for (const name of ['authorization', 'x-api-key', 'cookie', 'mcp-session-id']) expect(headersAt.other).not.toHaveProperty(name);
    expect(headersAt.other).toMatchObject({
      accept: 'application/json, text/event-stream',
      'content-type': 'application/json',
      'mcp-protocol-version': '2025-06-18',
    });
  });

  it('hands a redirect back as is when the caller asks for manual redirects', async () => {
    const response = await guarded.fetch(`${origin}/to-metadata`, { redirect: 'manual' });
    expect(response.status).toBe(307);
    expect(response.headers.get('location')).toBe(METADATA_URL);
    expect(served).toEqual(['GET /to-metadata']);
  });

  it('gives up on a redirect loop, naming its origin only (a query may hold a token, and the message is logged and stored)', async () => {
    const error = await guarded.fetch(`${origin}/loop?token=s3cret-in-query`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UrlRefusedError);
    expect((error as Error).message).toMatch(/too many redirects/);
    expect((error as Error).message).not.toContain('s3cret-in-query');
    expect(served).toHaveLength(6);
  });

  it('refuses the local server itself when private addresses are not allowed', async () => {
    const error = await strict.fetch(`${origin}/final`).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(UrlRefusedError);
    expect((error as Error).message).toContain('MCP_ALLOW_PRIVATE_URLS');
    expect(served).toEqual([]);
    expect(created).toEqual([]);
    const byName = await strict.fetch(`http://localhost:${new URL(origin).port}/final`).catch((caught: unknown) => caught);
    expect(byName).toBeInstanceOf(UrlRefusedError);
    expect(served).toEqual([]);
  });

  it('refuses the metadata address given directly, whatever the setting', async () => {
    for (const client of [guarded, strict]) {
      for (const url of [METADATA_URL, 'http://0xa9fea9fe/', 'http://[::ffff:169.254.169.254]/']) {
        await expect(client.fetch(url)).rejects.toBeInstanceOf(UrlRefusedError);
      }
    }
    expect(created).toEqual([]);
    expect(connecting).toEqual([]);
  });
});
