import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { indexEntry, type Key, type QueryInput } from '../platform/table.js';
import { conditionOf, nullableString, tableEntity, updateOf } from '../platform/updates.js';
import { workspacePartition } from '../workspaces/index.js';

/*
 * A workspace's connections and what hangs off them (docs/data-model.md): the connection item and
 * the claim of its name, in the workspace's partition, found by id through the lookups index; the
 * cached list of its tools, there too; its OAuth client and grants, in a partition of its own.
 */

const CONNECTION_PREFIX = 'CONN#';

/** A saved connection (`WS#<org>#<ws>` / `CONN#<id>`). */
export const connectionKey = (orgId: string, workspaceId: string, connectionId: string): Key => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: `${CONNECTION_PREFIX}${connectionId}`,
});

/** Whether an item of the workspace's partition is a connection (a name claim, `CONNNAME#`, is not). */
export const isConnectionItem = (item: { sk: string }) => item.sk.startsWith(CONNECTION_PREFIX);

/** The connection's entry in the lookups index: found by its id alone. */
export const connectionLookup = (connectionId: string) => indexEntry('lookups', `CONNID#${connectionId}`, 'CONN');

/** The claim of a connection name, unique per workspace regardless of case and spaces around it. */
export const connectionNameKey = (orgId: string, workspaceId: string, name: string): Key => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: `CONNNAME#${name.trim().toLowerCase()}`,
});

const TOOL_PREFIX = 'TOOL#';

/** A tool as cached with its connection. */
export const toolKey = (orgId: string, workspaceId: string, connectionId: string, toolName: string): Key => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: `${TOOL_PREFIX}${connectionId}#${toolName}`,
});

/** Whether an item of the workspace's partition is a cached tool. */
export const isToolItem = (item: { sk: string }) => item.sk.startsWith(TOOL_PREFIX);

/** The cached tool's schema as its writes see it: JSON text. */
const toolEntity = tableEntity('tool', { input_schema: string() });

/**
 * A tool's schema rewritten as JSON text, on condition it is still a map (migrations/004: tools
 * cached by the versions that stored it so; a listing since has written text).
 */
export const toolSchemaTextUpdate = (key: Key, text: string) =>
  updateOf(
    toolEntity
      .build(UpdateItemCommand)
      .item({ ...key, input_schema: text })
      .options({ condition: { attr: 'input_schema', type: 'M' } }),
  );

/** The registered (or given) OAuth client of a connection. */
export const oauthClientKey = (connectionId: string): Key => ({ pk: `OAUTH#${connectionId}`, sk: 'CLIENT' });

/** A grant's tokens: `workspace` for the connection's own grant, `user:<id>` for a person's. */
export const oauthTokensKey = (connectionId: string, subject: string): Key => ({ pk: `OAUTH#${connectionId}`, sk: `TOKENS#${subject}` });

/**
 * The sealing context of a connection's OAuth secret (`what`: `client`, or `tokens:<subject>`):
 * bound to the tool server's origin, so a client or tokens stored for one origin cannot be opened
 * as another's.
 */
export const grantContext = (connectionId: string, what: string, origin: string) => `oauth:${connectionId}:${what}@${origin}`;

/**
 * A sealed OAuth secret of a connection (its client, or a grant's tokens: oauth.ts) and the origin it
 * is bound to (migration 009 bound those stored before origins were kept).
 */
const grantEntity = tableEntity('oauth-grant', { sealed: string(), origin: string().optional() });

/** A write of a grant only while it is as read (`sealed`): not deleted (a move, a revoke) nor rewritten since. */
export const grantAsRead = (sealed: string) => conditionOf(grantEntity, { attr: 'sealed', eq: sealed });

/** The OAuth clients and grants of every connection stored before grants kept their origin (migration 009). */
export const grantsWithoutOrigin = () =>
  conditionOf(grantEntity, {
    and: [
      { attr: 'pk', beginsWith: 'OAUTH#' },
      {
        or: [
          { attr: 'sk', eq: 'CLIENT' },
          { attr: 'sk', beginsWith: 'TOKENS#' },
        ],
      },
      { attr: 'origin', exists: false },
    ],
  });

/** A grant under way, found by its `state`: single use, ten minutes (TTL). */
export const oauthStateKey = (state: string): Key => ({ pk: `OAUTHSTATE#${state}`, sk: 'STATE' });

/** The attributes of the connection item (`WS#<org>#<workspace>` / `CONN#<id>`) its tool writes touch. */
const connectionEntity = tableEntity('connection', {
  tools_discovered: boolean(),
  tool_count: number(),
  // null first, as the ledger's `last_error`: most listings are not cut.
  tools_truncated: nullableString,
  status: string().enum('connected', 'needs_authorization', 'error').optional(),
  last_error: nullableString.optional(),
  server: string().optional(),
  updated_at: string().optional(),
});

/** The connection (`ConnectionItem`) whose item is written. */
interface ConnectionOf {
  org_id: string;
  workspace_id: string;
  id: string;
}

/** The item's record of a listing: how many tools were kept, and why some were not (null when none were dropped). */
const listed = (connection: ConnectionOf, count: number, truncated: string | null) => ({
  ...connectionKey(connection.org_id, connection.workspace_id, connection.id),
  tool_count: count,
  tools_truncated: truncated,
});

/** The tools of a stdio connection listed on its first query: recorded only if the connection is there and nobody recorded them first. */
export function discoveredToolsUpdate(connection: ConnectionOf, count: number, truncated: string | null) {
  const command = connectionEntity
    .build(UpdateItemCommand)
    .item({ ...listed(connection, count, truncated), tools_discovered: true })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'tools_discovered', eq: false },
        ],
      },
    });
  return updateOf(command);
}

/** The tools of a connection listed again, if the connection is still there. */
export function listedToolsUpdate(connection: ConnectionOf, count: number, truncated: string | null) {
  const command = connectionEntity
    .build(UpdateItemCommand)
    .item(listed(connection, count, truncated))
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/**
 * A listing that reached the server (a refresh, or the listing after an OAuth grant): connected, no
 * error, the server's name, its tools recorded; `at`: when the connection's setting changed with it.
 */
export function connectedListingUpdate(
  connection: ConnectionOf,
  listing: { count: number; truncated: string | null; server: string },
  at?: string,
) {
  const command = connectionEntity
    .build(UpdateItemCommand)
    .item({
      ...listed(connection, listing.count, listing.truncated),
      tools_discovered: true,
      status: 'connected',
      last_error: null,
      server: listing.server,
      ...(at ? { updated_at: at } : {}),
    })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** The condition that the connection is still there (a delete or a rewrite of a deleted one is 404). */
export const connectionExists = () => conditionOf(connectionEntity, { attr: 'pk', exists: true });

/** A failed attempt to reach it: its status and why, if the connection is still there. */
export function failedHealthUpdate(connection: ConnectionOf, status: 'error' | 'needs_authorization', reason: string) {
  const command = connectionEntity
    .build(UpdateItemCommand)
    .item({ ...connectionKey(connection.org_id, connection.workspace_id, connection.id), status, last_error: reason })
    .options({ condition: { attr: 'pk', exists: true } });
  return updateOf(command);
}

/** Reached again: connected, no error, if the connection is still there and was not connected. */
export function reconnectedUpdate(connection: ConnectionOf) {
  const command = connectionEntity
    .build(UpdateItemCommand)
    .item({ ...connectionKey(connection.org_id, connection.workspace_id, connection.id), status: 'connected', last_error: null })
    .options({
      condition: {
        and: [
          { attr: 'pk', exists: true },
          { attr: 'status', ne: 'connected' },
        ],
      },
    });
  return updateOf(command);
}

// --- Access patterns ---

/** A connection by its id alone (then checked to be the caller's organisation's). */
export const connectionById = (connectionId: string): QueryInput => ({ index: 'lookups', pk: `CONNID#${connectionId}`, limit: 1 });

/** A workspace's connections. */
export const connectionsOfWorkspace = (orgId: string, workspaceId: string): QueryInput => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: { beginsWith: CONNECTION_PREFIX },
});

/** One connection's cached tools. */
export const toolsOfConnection = (orgId: string, workspaceId: string, connectionId: string): QueryInput => ({
  pk: workspacePartition(orgId, workspaceId),
  sk: { beginsWith: `${TOOL_PREFIX}${connectionId}#` },
});

/** A connection's OAuth client and grants, every one. */
export const grantsOfConnection = (connectionId: string): QueryInput => ({ pk: `OAUTH#${connectionId}` });
