import { describe, expect, it } from 'vitest';
import { ConfigError, parseConfig } from '../../shared/platform/config.js';

describe('parseConfig', () => {
  it('gives the local defaults of CONTRACT.md', () => {
    const config = parseConfig({}, 'local');
    expect(config).toMatchObject({
      port: 3000,
      host: '127.0.0.1',
      dataDir: './.data',
      sessionSecret: undefined,
      mcpStdioCommands: ['node', 'npx'],
      mcpAllowPrivateUrls: true,
      jobMaxAttempts: 3,
      jobRetryBaseMs: 1000,
      production: false,
    });
  });

  it('gives the AWS defaults: no stdio commands, no private URLs, production cookies, a required table name', () => {
    expect(() => parseConfig({}, 'aws')).toThrow(ConfigError);
    const config = parseConfig({ TABLE_NAME: 'service' }, 'aws');
    expect(config).toMatchObject({ mcpStdioCommands: [], mcpAllowPrivateUrls: false, production: true, tableName: 'service' });
  });

  it('reads every variable of the contract', () => {
    const config = parseConfig(
      {
        PORT: '8080',
        HOST: '0.0.0.0',
        DATA_DIR: 'memory',
        SESSION_SECRET: 's'.repeat(32),
        ANTHROPIC_API_KEY: 'sk-test',
        ANTHROPIC_BASE_URL: 'http://127.0.0.1:9999',
        SLACK_API_URL: 'http://127.0.0.1:9998/api/',
        MCP_STDIO_COMMANDS: ' node , python3 ,',
        MCP_ALLOW_PRIVATE_URLS: 'false',
        JOB_MAX_ATTEMPTS: '5',
        JOB_RETRY_BASE_MS: '250',
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
      mcpStdioCommands: ['node', 'python3'],
      mcpAllowPrivateUrls: false,
      jobMaxAttempts: 5,
      jobRetryBaseMs: 250,
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
