import { BriefCache } from '../platform/brief-cache.js';
import type { Table } from '../platform/table.js';
import { workspacePartition, workspaceWithChildren } from '../workspaces/index.js';
import { workspaceToolsOf } from './tool-access.js';

/**
 * How long a process trusts what it read of a workspace's tools (the workspace item, its
 * connections and their cached tools, its guardrails) for the MCP gateway's calls: as long as
 * sessions and tokens (auth/session-cache.ts), so a change made elsewhere (a permission, a
 * `block_tool` guardrail, a removed connection) reaches every process within the same bound as a
 * revoked token. In the process that made the change it holds on the next request: every write
 * to the workspace's partition through this process's table forgets its entry.
 */
const WORKSPACE_TOOLS_CACHE_MS = 5_000;

export type WorkspaceTools = ReturnType<typeof workspaceToolsOf>;

/** What this process read of workspaces' tools, briefly (platform/brief-cache.ts: read again behind a request past half its life). */
export class WorkspaceToolsCache {
  private readonly entries: BriefCache<WorkspaceTools>;

  constructor(
    private readonly table: Table,
    onRefreshFailed: (error: unknown) => void,
  ) {
    this.entries = new BriefCache(WORKSPACE_TOOLS_CACHE_MS, onRefreshFailed, { max: 1_000 });
    table.watchWrites((pk) => {
      if (pk.startsWith('WS#')) this.entries.forgetKey(pk);
    });
  }

  /** The workspace's tools, from one Query of its partition or from this process's recent read; another organisation's workspace, or none, is 404. */
  read(orgId: string, workspaceId: string): Promise<WorkspaceTools> {
    const query = workspaceWithChildren(orgId, workspaceId);
    return this.entries.read(workspacePartition(orgId, workspaceId), async () =>
      workspaceToolsOf(await this.table.queryAll(query), orgId, workspaceId),
    );
  }
}
