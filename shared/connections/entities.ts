import { Entity } from 'dynamodb-toolbox/entity';
import { UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { anyOf } from 'dynamodb-toolbox/schema/anyOf';
import { boolean } from 'dynamodb-toolbox/schema/boolean';
import { item } from 'dynamodb-toolbox/schema/item';
import { nul } from 'dynamodb-toolbox/schema/nul';
import { number } from 'dynamodb-toolbox/schema/number';
import { string } from 'dynamodb-toolbox/schema/string';
import { keys } from '../platform/keys.js';
import { plainItems, singleTable, updateOf } from '../platform/updates.js';

/* The connection item's typed writes (shared/platform/updates.ts), for connections.ts. */

/** The attributes of the connection item (`WS#<org>#<workspace>` / `CONN#<id>`) its tool writes touch. */
const connectionEntity = new Entity({
  name: 'connection',
  table: singleTable,
  ...plainItems,
  schema: item({
    pk: string().key(),
    sk: string().key(),
    tools_discovered: boolean(),
    tool_count: number(),
    // null first, as the ledger's `last_error`: most listings are not cut.
    tools_truncated: anyOf(nul(), string()),
    status: string().optional(),
    last_error: anyOf(nul(), string()).optional(),
    server: string().optional(),
    updated_at: string().optional(),
  }),
});

/** The connection (`ConnectionItem`) whose item is written. */
interface ConnectionOf {
  org_id: string;
  workspace_id: string;
  id: string;
}

/** The item's record of a listing: how many tools were kept, and why some were not (null when none were dropped). */
const listed = (connection: ConnectionOf, count: number, truncated: string | null) => ({
  ...keys.connection(connection.org_id, connection.workspace_id, connection.id),
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
