import type { Migration, MigrationContext } from '../shared/platform/migrations.js';
import type { Item } from '../shared/platform/table.js';

/*
 * 002: workspace partitions carry their organisation (`WS#<org>#<ws>`). Workspace ids were global
 * before; they are unique within an organisation now (CONTRACT.md, hardening). Every key whose
 * next segment after a workspace prefix was the workspace id gains the organisation before it;
 * the items are moved one by one (put the new, then delete the old).
 */

/** Partition prefixes whose next segment was the workspace id before version 2. */
const WORKSPACE_PREFIXES = ['WS#', 'WSSTAT#', 'WSACT#', 'WSGAP#', 'WSVIOL#', 'WSAPPR#', 'CONV#', 'FEEDBACK#', 'WSCONV#', 'WSCHANNELS#'];
/** Organisation ids are `org_<…>` (shared/auth/accounts.ts); workspace ids of version 1 are `ws-<slug>`. */
const ORG_PREFIX = 'org_';

/**
 * `<prefix><ws>…` → `<prefix><org>#<ws>…` when the value is a key of version 1 (its workspace
 * segment is not an organisation id); undefined when it is not such a key or is already new.
 */
function scopedKey(value: unknown, orgOf: (workspaceId: string) => string | undefined): string | undefined | null {
  if (typeof value !== 'string') return undefined;
  const prefix = WORKSPACE_PREFIXES.find((candidate) => value.startsWith(candidate));
  if (!prefix) return undefined;
  const rest = value.slice(prefix.length);
  if (rest.startsWith(ORG_PREFIX)) return undefined;
  const workspaceId = rest.split('#')[0] ?? '';
  const orgId = orgOf(workspaceId);
  return orgId ? `${prefix}${orgId}#${rest}` : null;
}

/** A due-index sort key of version 1, `<time>#<ws>#<id>`, with the organisation after the time. */
function scopedDueSortKey(item: Item): string | undefined {
  const value = item.gsi3sk;
  if (typeof value !== 'string' || typeof item.org_id !== 'string') return undefined;
  const parts = value.split('#');
  if (parts.length !== 3) return undefined;
  return `${parts[0]}#${item.org_id}#${parts[1]}#${parts[2]}`;
}

/** The item under version 2's keys, or undefined when it needs no change (null: its workspace is unknown, left as it is). */
function migrated(item: Item, orgOf: (workspaceId: string) => string | undefined): Item | undefined | null {
  const next: Item = { ...item };
  let changed = false;
  for (const attribute of ['pk', 'gsi1pk', 'gsi2pk'] as const) {
    const scoped = scopedKey(item[attribute], orgOf);
    if (scoped === null) return null;
    if (scoped !== undefined) {
      next[attribute] = scoped;
      changed = true;
    }
  }
  const due = scopedDueSortKey(item);
  if (due) {
    next.gsi3sk = due;
    changed = true;
  }
  return changed ? next : undefined;
}

/**
 * Each workspace's organisation, from its workspace item (`META`): of version 1 (`WS#<ws>`, its
 * `org_id`), or moved already by a run that stopped (`WS#<org>#<ws>`). Read whole on every run,
 * so that a run that goes on knows every workspace. An id two organisations hold maps to none
 * (null): their items are left as they are rather than moved under either.
 */
async function organisationsOfWorkspaces(scanWhole: MigrationContext['scanWhole']): Promise<Map<string, string | null>> {
  const organisations = new Map<string, string | null>();
  const hold = (workspaceId: string, orgId: string) => {
    const held = organisations.get(workspaceId);
    organisations.set(workspaceId, held === undefined || held === orgId ? orgId : null);
  };
  for await (const item of scanWhole({ condition: 'sk = :meta AND begins_with(pk, :ws)', values: { ':meta': 'META', ':ws': 'WS#' } })) {
    const rest = item.pk.slice('WS#'.length);
    const [orgId, workspaceId] = rest.split('#');
    if (rest.startsWith(ORG_PREFIX)) {
      if (orgId && workspaceId) hold(workspaceId, orgId);
    } else if (typeof item.org_id === 'string') hold(rest, item.org_id);
  }
  return organisations;
}

export const workspaceKeys: Migration = {
  version: 2,
  name: 'workspace keys carry their organisation',
  async run({ table, scan, scanWhole, moved, left }) {
    const organisations = await organisationsOfWorkspaces(scanWhole);
    for await (const item of scan('items')) {
      // Suffix counters of the global workspace ids: ids are claimed per organisation now.
      if (item.pk.startsWith('SLUG#ws#')) {
        await table.delete({ pk: item.pk, sk: item.sk });
        continue;
      }
      const next = migrated(item, (workspaceId) => organisations.get(workspaceId) ?? undefined);
      // Items of a workspace whose workspace item is gone stay as they were: nothing reads them.
      if (next === null) left();
      if (!next) continue;
      await table.put(next);
      if (next.pk !== item.pk) await table.delete({ pk: item.pk, sk: item.sk });
      moved();
    }
  },
};
