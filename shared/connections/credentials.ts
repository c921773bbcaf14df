import type { StdioServerEntry } from '../platform/config.js';
import { ValidationError } from '../platform/errors.js';
import type { SecretStore } from '../platform/store.js';
import { catalogueEntryOf } from './catalogue.js';
import type { ConnectionCredentials, ConnectionSpec } from './mcp-hub.js';

/*
 * A connection's static credentials (docs/connections.md): request headers of an http server,
 * environment variables of a stdio server. Both are secrets: sealed in the connection's item
 * (`platform/secrets.ts`), opened only when a session is opened, listed by name with a mask.
 */

const MASK = '••••••••';

/** Headers the transport owns or that would carry another site's session. */
const REFUSED_HEADERS = new Set(['host', 'content-length', 'connection', 'cookie']);
/** An HTTP header name (RFC 9110 token). */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]{1,64}$/;

/** What a connection stores of its credentials: the sealed values and the names to list. */
export interface StoredCredentials {
  credentials_sealed?: string;
  header_names: string[];
  env_names: string[];
}

const contextOf = (orgId: string, connectionId: string) => `connection:${orgId}:${connectionId}`;

function headerProblems(headers: Record<string, string>): { path: string; message: string }[] {
  return Object.keys(headers).flatMap((name) => {
    if (!HEADER_NAME.test(name)) return [{ path: `headers.${name}`, message: 'not a valid HTTP header name' }];
    if (REFUSED_HEADERS.has(name.toLowerCase())) {
      return [{ path: `headers.${name}`, message: 'Host, Content-Length, Connection and Cookie cannot be set' }];
    }
    return [];
  });
}

function envProblems(env: Record<string, string>, entry: StdioServerEntry | undefined): { path: string; message: string }[] {
  const allowed = entry?.env ?? [];
  return Object.keys(env)
    .filter((name) => !allowed.includes(name))
    .map((name) => ({
      path: `env.${name}`,
      message: allowed.length
        ? `this catalogue entry lets a connection set only ${allowed.join(', ')}`
        : 'this catalogue entry lets a connection set no environment variable',
    }));
}

/** Refuses credentials the transport does not take, header names it may not send, variables the catalogue does not declare. */
export function checkCredentials(
  stdioServers: Record<string, StdioServerEntry>,
  spec: ConnectionSpec,
  credentials: ConnectionCredentials,
): void {
  const problems: { path: string; message: string }[] = [];
  if (credentials.headers && spec.transport !== 'http') problems.push({ path: 'headers', message: 'only http connections send headers' });
  if (credentials.env && spec.transport !== 'stdio')
    problems.push({ path: 'env', message: 'only stdio connections take environment variables' });
  if (credentials.headers && spec.transport === 'http') problems.push(...headerProblems(credentials.headers));
  if (credentials.env && spec.transport === 'stdio') problems.push(...envProblems(credentials.env, catalogueEntryOf(stdioServers, spec)));
  if (problems.length) throw new ValidationError('invalid request body', problems);
}

/** Seals credentials for a connection's item (nothing is sealed when there are none). */
export async function sealCredentials(
  deps: SecretStore,
  orgId: string,
  connectionId: string,
  credentials: ConnectionCredentials,
): Promise<StoredCredentials> {
  const headers = credentials.headers ?? {};
  const env = credentials.env ?? {};
  const names = { header_names: Object.keys(headers), env_names: Object.keys(env) };
  if (!names.header_names.length && !names.env_names.length) return names;
  const sealed = await deps.secrets.seal(JSON.stringify({ headers, env }), contextOf(orgId, connectionId));
  return { credentials_sealed: sealed, ...names };
}

/** Opens a stored connection's credentials on demand (when a session is opened). */
export function credentialsOf(
  deps: SecretStore,
  item: { org_id: string; id: string; credentials_sealed?: string },
): (() => Promise<ConnectionCredentials>) | undefined {
  const sealed = item.credentials_sealed;
  if (!sealed) return undefined;
  return async () => JSON.parse(await deps.secrets.open(sealed, contextOf(item.org_id, item.id))) as ConnectionCredentials;
}

/** The listed form: each name with the mask. */
export function masked(names: unknown): Record<string, string> {
  return Array.isArray(names) ? Object.fromEntries(names.map((name) => [String(name), MASK])) : {};
}
