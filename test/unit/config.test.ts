import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, booleanSetting, parseConfig } from '../../shared/platform/config.js';

describe('parseConfig', () => {
  it('gives the local defaults of README.md (Configuration)', () => {
    const config = parseConfig({}, 'local');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './.data',
      sessionSecret: undefined,
      mcpStdioServers: { orders: { command: 'node', args: ['servers/orders-mcp-server.mjs'], env: [] } },
      // Off unless `npm start` (bin/local.ts) turns it on.
      mcpAllowPrivateUrls: false,
      signupMode: 'open',
      allowServiceModelKey: true,
      jobMaxAttempts: 3,
      jobRetryBaseMs: 1000,
      metricsByWorkspace: true,
      production: false,
    });
  });

  it('gives the AWS defaults: no stdio servers, no private URLs, sign-up by invitation, no service model key, production cookies, a required table name', () => {
    expect(() => parseConfig({}, 'aws')).toThrow(ConfigError);
    const config = parseConfig({ TABLE_NAME: 'service' }, 'aws');
    expect(config).toMatchObject({
      mcpStdioServers: {},
      mcpAllowPrivateUrls: false,
      signupMode: 'invite',
      allowServiceModelKey: false,
      production: true,
      tableName: 'service',
    });
  });

  it('keeps metrics by workspace unless strangers can sign up on AWS (their workspaces would be billed metrics), and as set', () => {
    expect(parseConfig({ TABLE_NAME: 't' }, 'aws').metricsByWorkspace).toBe(true);
    expect(parseConfig({ TABLE_NAME: 't', SIGNUP_MODE: 'open' }, 'aws').metricsByWorkspace).toBe(false);
    expect(parseConfig({ TABLE_NAME: 't', SIGNUP_MODE: 'open', METRICS_BY_WORKSPACE: 'true' }, 'aws').metricsByWorkspace).toBe(true);
    expect(parseConfig({ SIGNUP_MODE: 'open' }, 'local').metricsByWorkspace).toBe(true);
  });

  it('reads the stdio catalogue from JSON or from @<file>, with defaults for args and env', () => {
    const inline = parseConfig(
      {
        TABLE_NAME: 't',
        MCP_STDIO_SERVERS: '{"git":{"command":"uvx","args":["mcp-server-git"],"env":["GIT_TOKEN"]},"bare":{"command":"srv"}}',
      },
      'aws',
    );
    expect(inline.mcpStdioServers).toEqual({
      git: { command: 'uvx', args: ['mcp-server-git'], env: ['GIT_TOKEN'] },
      bare: { command: 'srv', args: [], env: [] },
    });
    const dir = mkdtempSync(join(tmpdir(), 'catalogue-'));
    const file = join(dir, 'servers.json');
    writeFileSync(file, JSON.stringify({ orders: { command: 'node', args: ['orders.mjs'] } }));
    expect(parseConfig({ MCP_STDIO_SERVERS: `@${file}` }, 'local').mcpStdioServers).toEqual({
      orders: { command: 'node', args: ['orders.mjs'], env: [] },
    });
    rmSync(dir, { recursive: true });
  });

  it('reads every variable of README.md (Configuration)', () => {
    const config = parseConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATA_DIR: 'memory',
        SESSION_SECRET: 's'.repeat(32),
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999',
        SLACK_API_URL: 'http://127.0.0.1:9998/api/',
        MCP_STDIO_SERVERS: '{"py":{"command":"python3","args":["server.py"]}}',
        MCP_ALLOW_PRIVATE_URLS: 'true',
        SIGNUP_MODE: 'closed',
        ALLOW_SERVICE_MODEL_KEY: 'false',
        JOB_MAX_ATTEMPTS: '5',
        JOB_RETRY_BASE_MS: '250',
        METRICS_BY_WORKSPACE: 'false',
      },
      'local',
    );
    expect(config).toMatchObject({
      port: 8080,
      host: '0.0.0.0',
      dataDir: null,
      sessionSecret: 's'.repeat(32),
      anthropicApiKey: 'sk-test',
      anthropicBaseUrl: 'http://127.0.0.1:9999',
      slackApiUrl: 'http://127.0.0.1:9998/api/',
      mcpStdioServers: { py: { command: 'python3', args: ['server.py'], env: [] } },
      mcpAllowPrivateUrls: true,
      signupMode: 'closed',
      allowServiceModelKey: false,
      jobMaxAttempts: 5,
      jobRetryBaseMs: 250,
      metricsByWorkspace: false,
    });
  });

  it('treats empty variables as unset', () => {
    expect(parseConfig({ PORT: '', SESSION_SECRET: '' }, 'local')).toMatchObject({ port: 3000, sessionSecret: undefined });
  });

  it.each([
    [{ PORT: 'eighty' }, 'PORT'],
    [{ PORT: '70000' }, 'PORT'],
    [{ SESSION_SECRET: 'too short' }, 'SESSION_SECRET'],
    [{ MCP_ALLOW_PRIVATE_URLS: 'maybe' }, 'MCP_ALLOW_PRIVATE_URLS'],
    [{ MCP_STDIO_SERVERS: 'node,npx' }, 'MCP_STDIO_SERVERS'],
    [{ MCP_STDIO_SERVERS: '{"x":{"args":["a"]}}' }, 'MCP_STDIO_SERVERS'],
    [{ MCP_STDIO_SERVERS: '@/no/such/catalogue.json' }, 'MCP_STDIO_SERVERS'],
    [{ SIGNUP_MODE: 'maybe' }, 'SIGNUP_MODE'],
    [{ JOB_MAX_ATTEMPTS: '0' }, 'JOB_MAX_ATTEMPTS'],
    [{ ANTHROPIC_BASE_URL: 'not a url' }, 'ANTHROPIC_BASE_URL'],
  ])('refuses %j, naming the variable', (env, name) => {
    try {
      parseConfig(env, 'local');
      expect.unreachable('parseConfig accepted an invalid environment');
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as ConfigError).issues.join('\n')).toContain(name);
      // The message names the variable but never echoes a secret's value.
      expect((error as ConfigError).message).not.toContain('too short');
    }
  });
});

describe('booleanSetting (the CDK app passes yes/no settings on as the service reads them)', () => {
  it('reads true/1/yes and false/0/no, leaves unset and empty undefined, and names the variable of anything else', () => {
    expect(['true', '1', 'yes'].map((value) => booleanSetting('X', value))).toEqual([true, true, true]);
    expect(['false', '0', 'no'].map((value) => booleanSetting('X', value))).toEqual([false, false, false]);
    expect(booleanSetting('X', undefined)).toBeUndefined();
    expect(booleanSetting('X', '')).toBeUndefined();
    expect(() => booleanSetting('METRICS_BY_WORKSPACE', 'maybe')).toThrow(/METRICS_BY_WORKSPACE must be true, false/);
  });
});
