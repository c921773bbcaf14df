import { Hono } from 'hono';
import { describe, expect, it } from 'vitest';
import { ORIGIN_VERIFY_HEADER, awsClientAddress, viewerAddressOf } from '../../shared/platform/viewer-address.js';

const SECRET = 'origin-secret-of-sixty-four-characters-0123456789abcdefghijklmnop';
const SOURCE_IP = '130.176.1.10'; // a CloudFront edge server's, as API Gateway sees it

/** The address the function computes for a request with these headers, arriving from SOURCE_IP. */
async function addressOf(headers: Record<string, string>, originSecret: string | undefined = SECRET): Promise<string> {
  const clientAddress = awsClientAddress(originSecret);
  const app = new Hono().get('/', (c) => c.text(clientAddress(c) ?? 'none'));
  // What hono/aws-lambda passes as the environment: the event's request context.
  const response = await app.request('/', { headers }, { requestContext: { http: { sourceIp: SOURCE_IP } } });
  return response.text();
}

describe('viewerAddressOf', () => {
  it('reads the IP of CloudFront-Viewer-Address (ip:port), IPv4 and IPv6', () => {
    expect(viewerAddressOf('198.51.100.10:46532')).toBe('198.51.100.10');
    expect(viewerAddressOf('2001:db8:85a3::8a2e:370:7334:46532')).toBe('2001:db8:85a3::8a2e:370:7334');
    expect(viewerAddressOf('2406:2d40:728d:fa10::c4a:42838')).toBe('2406:2d40:728d:fa10::c4a');
    expect(viewerAddressOf('[2001:db8::1]:443')).toBe('2001:db8::1');
  });

  it('refuses anything else: no port, a bad port, no IP, other forms of IPv4', () => {
    for (const value of [
      undefined,
      '',
      '198.51.100.10',
      '198.51.100.10:',
      '198.51.100.10:65536',
      '198.51.100.10:port',
      ':443',
      'example.com:443',
      '0x7f.1:443',
      '198.51.100.10, 203.0.113.5:443',
      '2001:db8::1',
    ]) {
      expect(viewerAddressOf(value), String(value)).toBeUndefined();
    }
  });
});

describe('awsClientAddress', () => {
  it("takes the viewer's address when the request carries the origin secret", async () => {
    expect(await addressOf({ [ORIGIN_VERIFY_HEADER]: SECRET, 'cloudfront-viewer-address': '198.51.100.10:46532' })).toBe('198.51.100.10');
  });

  it('takes an IPv6 viewer address with its port', async () => {
    expect(await addressOf({ [ORIGIN_VERIFY_HEADER]: SECRET, 'cloudfront-viewer-address': '2001:db8:85a3::7334:46532' })).toBe(
      '2001:db8:85a3::7334',
    );
  });

  it('uses the source IP when the secret is missing or wrong: a direct caller chooses no address', async () => {
    const viewer = { 'cloudfront-viewer-address': '198.51.100.10:46532', 'x-forwarded-for': '198.51.100.10' };
    expect(await addressOf(viewer)).toBe(SOURCE_IP);
    expect(await addressOf({ ...viewer, [ORIGIN_VERIFY_HEADER]: 'guess' })).toBe(SOURCE_IP);
    expect(await addressOf({ ...viewer, [ORIGIN_VERIFY_HEADER]: `${SECRET}x` })).toBe(SOURCE_IP);
    expect(await addressOf({ ...viewer, [ORIGIN_VERIFY_HEADER]: SECRET.slice(0, -1) })).toBe(SOURCE_IP);
    expect(await addressOf({ ...viewer, [ORIGIN_VERIFY_HEADER]: '' })).toBe(SOURCE_IP);
  });

  it('uses the source IP when the function has no origin secret, whatever the request says', async () => {
    const headers = { [ORIGIN_VERIFY_HEADER]: '', 'cloudfront-viewer-address': '198.51.100.10:46532' };
    expect(await addressOf(headers, undefined)).toBe(SOURCE_IP);
    expect(await addressOf(headers, '')).toBe(SOURCE_IP);
  });

  it('uses the source IP when the viewer address is missing or malformed, even with the secret', async () => {
    expect(await addressOf({ [ORIGIN_VERIFY_HEADER]: SECRET })).toBe(SOURCE_IP);
    for (const malformed of ['198.51.100.10', 'not-an-address:443', '198.51.100.10:99999', '']) {
      expect(await addressOf({ [ORIGIN_VERIFY_HEADER]: SECRET, 'cloudfront-viewer-address': malformed }), malformed).toBe(SOURCE_IP);
    }
  });

  it('is undefined outside a Lambda event (no request context)', async () => {
    const clientAddress = awsClientAddress(SECRET);
    const app = new Hono().get('/', (c) => c.text(clientAddress(c) ?? 'none'));
    expect(await (await app.request('/')).text()).toBe('none');
  });

  it("falls back to the source the runtime gives (the agent service: the socket's peer), and trusts the viewer only with the secret", async () => {
    const clientAddress = awsClientAddress(SECRET, () => '10.0.3.7');
    const app = new Hono().get('/', (c) => c.text(clientAddress(c) ?? 'none'));
    const viewer = { 'cloudfront-viewer-address': '203.0.113.9:51234' };
    expect(await (await app.request('/', { headers: viewer })).text()).toBe('10.0.3.7');
    expect(await (await app.request('/', { headers: { ...viewer, [ORIGIN_VERIFY_HEADER]: 'wrong' } })).text()).toBe('10.0.3.7');
    expect(await (await app.request('/', { headers: { ...viewer, [ORIGIN_VERIFY_HEADER]: SECRET } })).text()).toBe('203.0.113.9');
  });
});
