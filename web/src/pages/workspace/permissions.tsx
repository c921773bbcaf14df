import { useState } from 'react';
import { $api, type Schemas, useRefresh } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { ActionForm, Field } from '../../ui/form';
import { PageHeader, Section } from '../../ui/page';
import { Loadable } from '../../ui/states';
import { DataTable } from '../../ui/table';
import { OtherErrors } from './consumers/other-errors';
import { useWorkspaceId } from './shell';
import { globMatcher } from '../../../../shared/platform/globs';

type Detail = Schemas['WorkspaceDetail'];
/** A tool with the names rules match it by: its MCP name, the name offered to the model, `<connection>__<tool>`. */
interface NamedTool {
  tool: Schemas['Tool'];
  connection: string;
  names: string[];
}

/** The roles the API accepts (`PUT …/permissions/{role}`). */
const ROLES = ['admin', 'member'] as const;
type Role = (typeof ROLES)[number];

/** The names the service matches a tool by (shared/agent/query/tools.ts): prefixed where two connections share a name. */
function namedTools(detail: Detail): NamedTool[] {
  const connectionName = new Map(detail.connections.map((connection) => [connection.id, connection.name]));
  const counts = new Map<string, number>();
  for (const tool of detail.tools) counts.set(tool.name, (counts.get(tool.name) ?? 0) + 1);
  return detail.tools.map((tool) => {
    const connection = connectionName.get(tool.connection_id) ?? tool.connection_id;
    const offered =
      ((counts.get(tool.name) ?? 0) > 1 ? `${connection}__${tool.name}` : tool.name).replace(/[^a-zA-Z0-9_-]/g, '_').slice(0, 64) || 'tool';
    return { tool, connection, names: [...new Set([tool.name, offered, `${connection}__${tool.name}`])] };
  });
}

/**
 * Whether `patterns` allow a tool under any of its names: `*` matches any run of characters, anything
 * else itself, over the whole name (the service's own matcher, each pattern compiled once).
 */
function allowedBy(patterns: string[]): (tool: NamedTool) => boolean {
  const matchers = patterns.map((pattern) => globMatcher(pattern));
  return (tool) => tool.names.some((name) => matchers.some((matches) => matches(name)));
}

/** A role's patterns: stored as a JSON-encoded array; unreadable or absent is none. */
function patternsOf(detail: Detail, role: string): string[] {
  const raw = detail.permissions.find((permission) => permission.role === role)?.tool_patterns;
  try {
    const parsed: unknown = raw ? JSON.parse(raw) : [];
    return Array.isArray(parsed) ? parsed.filter((item): item is string => typeof item === 'string') : [];
  } catch {
    return [];
  }
}

const linesOf = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);

function EditPatterns({ role, patterns, tools, onDone }: { role: Role; patterns: string[]; tools: NamedTool[]; onDone: () => void }) {
  const id = useWorkspaceId();
  const refresh = useRefresh('/api/workspaces/{id}');
  const [text, setText] = useState(patterns.join('\n'));
  const save = $api.useMutation('put', '/api/workspaces/{id}/permissions/{role}', {
    onSuccess: async () => {
      await refresh();
      onDone();
    },
  });
  const preview = tools.filter(allowedBy(linesOf(text))).map((tool) => tool.tool.name);
  return (
    <ActionForm
      label={`Edit the patterns of the ${role} role`}
      error={save.error}
      onSubmit={({ tool_patterns: value = '' }) => save.mutate({ params: { path: { id, role } }, body: { tool_patterns: linesOf(value) } })}
      submit="Save patterns"
      pending={save.isPending}
      onCancel={onDone}
    >
      <OtherErrors error={save.error} shown={['tool_patterns']} />
      <Field
        label={`Tool-name patterns of the ${role} role`}
        name="tool_patterns"
        error={save.error}
        hint="One per line: letters, digits, _ . - and *, which matches any run of characters. None: the role may use no tools."
      >
        <textarea rows={4} value={text} onChange={(event) => setText(event.target.value)} />
      </Field>
      <p className="hint" aria-live="polite">
        These patterns allow {preview.length} of {tools.length} tools{preview.length ? `: ${preview.join(', ')}` : ''}.
      </p>
    </ActionForm>
  );
}

function RoleCard({ role, patterns, tools, isAdmin }: { role: Role; patterns: string[]; tools: NamedTool[]; isAdmin: boolean }) {
  const [editing, setEditing] = useState(false);
  const allowed = tools.filter(allowedBy(patterns));
  return (
    <article className="card access-role" aria-labelledby={`role-${role}`}>
      <h3 id={`role-${role}`}>{role === 'admin' ? 'Admins' : 'Members'}</h3>
      {editing ? (
        <EditPatterns role={role} patterns={patterns} tools={tools} onDone={() => setEditing(false)} />
      ) : (
        <>
          {patterns.length ? (
            <ul className="access-patterns" aria-label={`Patterns of the ${role} role`}>
              {patterns.map((pattern) => (
                <li key={pattern}>
                  <code>{pattern}</code>
                </li>
              ))}
            </ul>
          ) : (
            <p>No patterns: this role may use no tools.</p>
          )}
          <p className="hint">
            Allows {allowed.length} of {tools.length} tools.
          </p>
          {isAdmin && (
            <button type="button" className="button secondary small" onClick={() => setEditing(true)}>
              Edit patterns<span className="visually-hidden"> of the {role} role</span>
            </button>
          )}
        </>
      )}
    </article>
  );
}

function ToolsByRole({ tools, patterns }: { tools: NamedTool[]; patterns: Record<Role, string[]> }) {
  const allowed = { admin: allowedBy(patterns.admin), member: allowedBy(patterns.member) };
  return (
    <DataTable
      caption="Tools each role may use"
      columns={[
        { header: 'Tool', cell: (tool) => <code>{tool.tool.name}</code> },
        { header: 'Connection', cell: (tool) => tool.connection },
        { header: 'Kind', cell: (tool) => (tool.tool.is_write ? 'writes' : 'reads') },
        ...ROLES.map((role) => ({
          header: role === 'admin' ? 'Admins' : 'Members',
          className: (tool: NamedTool) => (allowed[role](tool) ? 'access-allowed' : 'access-denied'),
          cell: (tool: NamedTool) => (allowed[role](tool) ? 'Allowed' : 'Not allowed'),
        })),
      ]}
      rows={tools}
      rowKey={(tool) => tool.tool.id}
      empty="No tools yet: connect an MCP server on the Connections page and its tools show here."
    />
  );
}

/** Per role, the tool-name patterns it may use, and which of the workspace's tools they allow. */
export default function Permissions() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const detail = $api.useQuery('get', '/api/workspaces/{id}', { params: { path: { id } } });
  return (
    <>
      <PageHeader title="Permissions">
        <p>
          Which tools each role may use: a tool is offered when a pattern matches its name, its offered name or
          &lt;connection&gt;__&lt;tool&gt;.
        </p>
      </PageHeader>
      <Loadable query={detail} label="permissions">
        {(data) => {
          const tools = namedTools(data);
          const patterns = { admin: patternsOf(data, 'admin'), member: patternsOf(data, 'member') };
          return (
            <>
              <Section title="Roles">
                <div className="grid">
                  {ROLES.map((role) => (
                    <RoleCard key={role} role={role} patterns={patterns[role]} tools={tools} isAdmin={isAdmin} />
                  ))}
                </div>
              </Section>
              <Section title="Tools each role may use">
                <ToolsByRole tools={tools} patterns={patterns} />
              </Section>
            </>
          );
        }}
      </Loadable>
    </>
  );
}
