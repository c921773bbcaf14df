import type { ReactNode } from 'react';
import { Link } from 'react-router';
import { $api } from '../../api/client';
import { CopyButton } from '../../ui/copy';
import { PageHeader, Section } from '../../ui/page';
import { useWorkspaceId } from './shell';

/*
 * Workspace → Use from your tools (docs/mcp-gateway.md): the workspace as a remote MCP server. Its
 * URL, and how to add it to Claude Code, Cursor, VS Code and other clients; the first call opens
 * the browser to sign in and allow the client (the consent page, pages/oauth/consent.tsx).
 */

/** A name for the server in a client's configuration: the workspace's name in lower case, letters, digits and dashes. */
function shortName(workspaceName: string): string {
  const slug = workspaceName
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 40)
    .replace(/-+$/, '');
  return slug || 'workspace';
}

/** The setup of each client, with the URL and the name in place. */
function setups(name: string, url: string) {
  return {
    claudeCode: `claude mcp add --transport http ${name} ${url}`,
    cursor: JSON.stringify({ mcpServers: { [name]: { url } } }, null, 2),
    vscode: JSON.stringify({ servers: { [name]: { type: 'http', url } } }, null, 2),
  };
}

/** A block of setup to copy, with what to do with it. */
function Snippet({ title, children, code }: { title: string; children: ReactNode; code: string }) {
  return (
    <Section title={title} actions={<CopyButton value={code} what={`the ${title} setup`} />}>
      <p>{children}</p>
      <pre>{code}</pre>
    </Section>
  );
}

/** `/workspaces/:id/mcp`: the workspace's MCP URL and each client's setup. */
export default function UseFromTools() {
  const id = useWorkspaceId();
  // The shell's read: already in the cache.
  const summary = $api.useQuery('get', '/api/workspaces/{id}/summary', { params: { path: { id } } });
  const name = shortName(summary.data?.workspace.name ?? id);
  const url = `${window.location.origin}/api/workspaces/${id}/mcp`;
  const setup = setups(name, url);
  return (
    <>
      <PageHeader title="Use from your tools">
        <p>
          Add this workspace to your MCP client (Claude Code, Cursor, VS Code, ChatGPT, Claude Desktop…) as a remote MCP server: it offers
          the tools you may use here, and <code>ask</code>, which answers as the chat does.
        </p>
      </PageHeader>
      <Section title="MCP URL">
        <div className="secret-row">
          <code className="wc-break">{url}</code>
          <CopyButton value={url} what="the MCP URL" />
        </div>
        <p>
          The first call opens your browser to sign in and allow the client for this workspace. Its calls are then yours: your permissions,
          approvals and guardrails apply, and each is in the activity log. The clients you connected are under your{' '}
          <Link to="/me">profile</Link>, where you can revoke them.
        </p>
      </Section>
      <Snippet title="Claude Code" code={setup.claudeCode}>
        Run in a terminal:
      </Snippet>
      <Snippet title="Cursor" code={setup.cursor}>
        Add to <code>~/.cursor/mcp.json</code> (or <code>.cursor/mcp.json</code> in a project):
      </Snippet>
      <Snippet title="VS Code" code={setup.vscode}>
        Add to <code>.vscode/mcp.json</code> in your project:
      </Snippet>
      <Section title="Other clients">
        <p>
          Add a remote MCP server (Streamable HTTP) with the URL above, without a key: the client signs you in in the browser. A
          consumer&apos;s coding-agent key (the Consumers tab) also works at this URL, as <code>Authorization: Bearer &lt;key&gt;</code>,
          with the <code>ask</code> tool only.
        </p>
      </Section>
    </>
  );
}
