import { auth } from '@modelcontextprotocol/sdk/client/auth.js';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { initializeWith, MemoryOAuthClient } from '../support/mcp-oauth.js';
import { SSO_CLIENT, startOidcProvider } from '../support/oidc-provider.js';
import { checkPage, launchBrowser, saveFailure } from './browser.js';
import { startConsoleService, type ConsoleService } from './service.js';

/*
 * The workspace as an MCP server for people (issue 48, docs/mcp-gateway.md), from the console's
 * side: the MCP SDK's own OAuth client (`auth()`) against the running service, its person signing
 * in and consenting on the console's page in Chromium, then listing tools with the tokens it got;
 * the workspace's "Use from your tools" page; the connected clients under the profile and the
 * organisation, and Revoke.
 */

let service: ConsoleService;
let browser: Browser;
let page: Page;
const at = (path: string) => `${service.url}${path}`;

const PERSON = { name: 'Grace Hopper', email: 'grace@example.com', password: 'compiler pioneer' };
const WORKSPACE = { id: 'ws-fleet-tools', name: 'Fleet Tools' };
/** Where the client waits for the code: a loopback port nothing listens on (the browser's navigation there is intercepted). */
const CALLBACK = 'http://127.0.0.1:33419/callback';
const mcpUrl = () => at(`/api/workspaces/${WORKSPACE.id}/mcp`);

beforeAll(async () => {
  // The single sign-on test's identity provider is on loopback.
  service = await startConsoleService({ env: { MCP_ALLOW_PRIVATE_URLS: 'true' } });
  browser = await launchBrowser();
  page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
  await page.goto(at('/signup'));
  await page.getByLabel('Your name').fill(PERSON.name);
  await page.getByLabel('Email').fill(PERSON.email);
  await page.getByLabel('Password').fill(PERSON.password);
  await page.getByLabel('Organisation name').fill('Navy Labs');
  await page.getByRole('button', { name: 'Create organisation' }).click();
  await page.getByRole('heading', { level: 1, name: 'Workspaces' }).waitFor();
  await page.getByRole('button', { name: 'New workspace' }).click();
  await page.getByLabel('Name').fill(WORKSPACE.name);
  await page.getByRole('button', { name: 'Create workspace' }).click();
  await page.waitForURL(at(`/workspaces/${WORKSPACE.id}`));
});
afterEach(async (context) => {
  if (context.task.result?.state === 'fail') await saveFailure(page, context.task.name);
});
afterAll(async () => {
  await browser?.close();
  await service?.stop();
});

/**
 * The client's redirect URI as the browser is sent there, captured (with `code`, `state`, `iss`,
 * or `error`): the navigation is answered by the test, so nothing need listen on its port.
 */
async function catchCallback(on: Page): Promise<() => Promise<URL>> {
  let resolve: (url: URL) => void = () => {};
  const caught = new Promise<URL>((done) => {
    resolve = done;
  });
  await on.route(
    (url) => url.href.startsWith(CALLBACK),
    async (route) => {
      resolve(new URL(route.request().url()));
      await route.fulfill({ status: 200, contentType: 'text/plain', body: 'You can close this tab.' });
    },
  );
  return () => caught;
}

/** A new MCP client that found the service from the MCP URL's 401, registered and was sent to sign in: its authorization URL. */
async function startSignIn(name: string): Promise<MemoryOAuthClient> {
  const client = new MemoryOAuthClient(CALLBACK, name);
  expect(await auth(client, { serverUrl: mcpUrl() })).toBe('REDIRECT');
  expect(client.authorizationUrl).toBeDefined();
  return client;
}

/** The consent page's request, opened from the authorization URL, shown. */
async function openConsent(on: Page, client: MemoryOAuthClient) {
  await on.goto(String(client.authorizationUrl));
  await on.getByRole('heading', { level: 1, name: 'Connect an MCP client' }).waitFor();
  expect(new URL(on.url()).pathname).toMatch(/^\/oauth\/consent\/[^/]+$/);
  return on.getByRole('region', { name: 'What the client asks' });
}

/** Consent given on the page (Allow), the code exchanged by the SDK: the client holds tokens. */
async function signInThroughPage(on: Page, name: string): Promise<MemoryOAuthClient> {
  const client = await startSignIn(name);
  const callback = await catchCallback(on);
  const request = await openConsent(on, client);
  await request.getByRole('button', { name: `Allow ${name}` }).click();
  const back = await callback();
  const code = back.searchParams.get('code') ?? '';
  expect(code).not.toBe('');
  expect(await auth(client, { serverUrl: mcpUrl(), authorizationCode: code })).toBe('AUTHORIZED');
  await on.unrouteAll();
  return client;
}

/** An `initialize` at the MCP URL with `token`: its status (401 once the token is refused). */
async function mcpStatus(token: string): Promise<number> {
  const response = await initializeWith(mcpUrl(), token);
  await response.body?.cancel();
  return response.status;
}

describe('Use from your tools', () => {
  it("shows the workspace's MCP URL and each client's setup, to copy", async () => {
    await page.goto(at(`/workspaces/${WORKSPACE.id}`));
    await page.getByRole('navigation', { name: 'Workspace' }).getByRole('link', { name: 'Use from your tools' }).click();
    await page.getByRole('heading', { level: 1, name: 'Use from your tools' }).waitFor();
    const urlSection = page.getByRole('region', { name: 'MCP URL' });
    expect(await urlSection.locator('code').first().textContent()).toBe(mcpUrl());
    await urlSection.getByRole('button', { name: 'Copy the MCP URL' }).waitFor();
    const claude = page.getByRole('region', { name: 'Claude Code' });
    expect(await claude.locator('pre').textContent()).toBe(`claude mcp add --transport http fleet-tools ${mcpUrl()}`);
    const cursor = JSON.parse((await page.getByRole('region', { name: 'Cursor' }).locator('pre').textContent()) ?? '');
    expect(cursor).toEqual({ mcpServers: { 'fleet-tools': { url: mcpUrl() } } });
    const vscode = JSON.parse((await page.getByRole('region', { name: 'VS Code' }).locator('pre').textContent()) ?? '');
    expect(vscode).toEqual({ servers: { 'fleet-tools': { type: 'http', url: mcpUrl() } } });
    expect(await page.getByRole('region', { name: 'Other clients' }).textContent()).toContain('ask');
    await checkPage(page, 'mcp-use-from-tools');
  });
});

describe('an MCP client signing in through the consent page', () => {
  it('names the client as self-declared, its redirect host and the workspace; Allow gives the client a code with iss, then tools', async () => {
    const client = await startSignIn('Gateway test client');
    const callback = await catchCallback(page);
    const request = await openConsent(page, client);
    const text = (await request.textContent()) ?? '';
    expect(text).toContain('Gateway test client');
    expect(text).toContain('self-declared name, not verified');
    expect(text).toContain('will send you back to 127.0.0.1:33419');
    expect(text).toContain(WORKSPACE.name);
    await checkPage(page, 'mcp-consent');
    await request.getByRole('button', { name: 'Allow Gateway test client' }).click();
    const back = await callback();
    await page.unrouteAll();
    expect(back.origin + back.pathname).toBe(CALLBACK);
    expect(back.searchParams.get('iss')).toBe(service.url);
    const code = back.searchParams.get('code') ?? '';
    expect(code).not.toBe('');
    expect(await auth(client, { serverUrl: mcpUrl(), authorizationCode: code })).toBe('AUTHORIZED');
    expect(client.saved?.access_token).toBeTruthy();

    const mcp = new Client({ name: 'gateway-browser-test', version: '1.0.0' });
    await mcp.connect(new StreamableHTTPClientTransport(new URL(mcpUrl()), { authProvider: client }));
    try {
      const { tools } = await mcp.listTools();
      expect(tools.map((tool) => tool.name)).toContain('ask');
    } finally {
      await mcp.close();
    }
  });

  it('sends the client access_denied when the person denies', async () => {
    const client = await startSignIn('Denied client');
    const callback = await catchCallback(page);
    const request = await openConsent(page, client);
    await request.getByRole('button', { name: 'Deny Denied client' }).click();
    const back = await callback();
    await page.unrouteAll();
    expect(back.searchParams.get('error')).toBe('access_denied');
    expect(back.searchParams.get('code')).toBeNull();
  });

  it('says an unknown or expired request is so, and to connect again from the client', async () => {
    await page.goto(at('/oauth/consent/no-such-request'));
    await page.getByRole('heading', { level: 1, name: 'Sign-in request not found' }).waitFor();
    expect(await page.locator('main').textContent()).toContain('connect again from your MCP client');
    await checkPage(page, 'mcp-consent-unknown');
  });

  it('signs a person in first when they are not, then comes back to the consent', async () => {
    const fresh: BrowserContext = await browser.newContext({ viewport: { width: 390, height: 844 } });
    try {
      const visitor = await fresh.newPage();
      const client = await startSignIn('Signed-out client');
      const callback = await catchCallback(visitor);
      await visitor.goto(String(client.authorizationUrl));
      await visitor.getByRole('heading', { level: 1, name: 'Sign in' }).waitFor();
      expect(new URL(visitor.url()).searchParams.get('next')).toMatch(/^\/oauth\/consent\/[^/]+$/);
      await visitor.getByLabel('Email').fill(PERSON.email);
      await visitor.getByLabel('Password').fill(PERSON.password);
      await visitor.getByRole('button', { name: 'Sign in' }).click();
      await visitor.getByRole('heading', { level: 1, name: 'Connect an MCP client' }).waitFor();
      expect(new URL(visitor.url()).pathname).toMatch(/^\/oauth\/consent\/[^/]+$/);
      const request = visitor.getByRole('region', { name: 'What the client asks' });
      expect(await request.textContent()).toContain('Signed-out client');
      await request.getByRole('button', { name: 'Allow Signed-out client' }).click();
      const code = (await callback()).searchParams.get('code') ?? '';
      expect(await auth(client, { serverUrl: mcpUrl(), authorizationCode: code })).toBe('AUTHORIZED');
    } finally {
      await fresh.close();
    }
  });
});

describe('single sign-on on the way to the consent', () => {
  it("signs a person in with the organisation's provider, then comes back to the consent (the provider returns to /)", async () => {
    const provider = await startOidcProvider();
    const fresh: BrowserContext = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    try {
      const email = 'kay@navy-sso.test';
      provider.accounts.set(email, { email, name: 'Kay McNulty' });
      provider.start([{ ...SSO_CLIENT, redirect_uris: [at('/api/auth/sso/callback')] }]);
      const configured = await page.request.put(at('/api/org/sso'), {
        data: {
          issuer: provider.issuer,
          client_id: SSO_CLIENT.client_id,
          client_secret: SSO_CLIENT.client_secret,
          domains: ['navy-sso.test'],
          default_role: 'member',
          required: false,
        },
      });
      expect(configured.status()).toBe(200);

      const visitor = await fresh.newPage();
      const client = await startSignIn('Single sign-on client');
      const callback = await catchCallback(visitor);
      await visitor.goto(String(client.authorizationUrl));
      await visitor.getByRole('link', { name: 'Sign in with single sign-on' }).click();
      const form = visitor.getByRole('form', { name: 'Sign in with single sign-on' });
      await form.getByLabel('Email').fill(email);
      await form.getByRole('button', { name: 'Continue with single sign-on' }).click();
      await visitor.getByRole('heading', { level: 1, name: 'Connect an MCP client' }).waitFor();
      expect(new URL(visitor.url()).pathname).toMatch(/^\/oauth\/consent\/[^/]+$/);
      const request = visitor.getByRole('region', { name: 'What the client asks' });
      expect(await request.textContent()).toContain('Kay McNulty');
      await request.getByRole('button', { name: 'Allow Single sign-on client' }).click();
      const code = (await callback()).searchParams.get('code') ?? '';
      expect(await auth(client, { serverUrl: mcpUrl(), authorizationCode: code })).toBe('AUTHORIZED');
      // The kept page is used once: `/` opens the chat again.
      await visitor.goto(at('/'));
      await visitor.waitForURL(/\/chat/);
    } finally {
      await fresh.close();
      await page.request.delete(at('/api/org/sso'));
      await provider.stop();
    }
  });
});

describe('connected clients', () => {
  it("lists the person's clients under the profile; Revoke, after a confirmation, removes one and ends its token", async () => {
    const client = await signInThroughPage(page, 'Profile client');
    const token = client.saved?.access_token ?? '';
    expect(await mcpStatus(token)).not.toBe(401);
    await page.goto(at('/me'));
    const table = page.getByRole('table', { name: 'Your connected MCP clients' });
    const row = table.getByRole('row', { name: /Profile client/ });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain('no: self-declared name');
    expect(text).toContain(WORKSPACE.name);
    expect(text).toContain('127.0.0.1:33419');
    await checkPage(page, 'mcp-profile-clients');
    await row.getByRole('button', { name: 'Revoke Profile client' }).click();
    const dialog = page.getByRole('dialog', { name: 'Revoke Profile client?' });
    await dialog.getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    expect(await mcpStatus(token)).toBe(401);
  });

  it("lists everyone's clients for an admin, with who connected each; Revoke ends one", async () => {
    const client = await signInThroughPage(page, 'Admin-listed client');
    const token = client.saved?.access_token ?? '';
    await page.goto(at('/org'));
    await page.getByRole('navigation', { name: 'Organisation' }).getByRole('link', { name: 'MCP clients' }).click();
    await page.getByRole('heading', { level: 1, name: 'Connected MCP clients' }).waitFor();
    const row = page.getByRole('table', { name: 'Connected MCP clients' }).getByRole('row', { name: /Admin-listed client/ });
    await row.waitFor();
    const text = (await row.textContent()) ?? '';
    expect(text).toContain(`${PERSON.name} (${PERSON.email})`);
    expect(text).toContain(WORKSPACE.name);
    await checkPage(page, 'mcp-org-clients');
    await row.getByRole('button', { name: 'Revoke Admin-listed client' }).click();
    await page.getByRole('dialog', { name: 'Revoke Admin-listed client?' }).getByRole('button', { name: 'Revoke', exact: true }).click();
    await row.waitFor({ state: 'detached' });
    expect(await mcpStatus(token)).toBe(401);
  });
});
