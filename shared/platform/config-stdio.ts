import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { errorMessage } from './errors.js';

/*
 * The stdio tool servers the operator allows (`MCP_STDIO_SERVERS`, read by config.ts).
 */

/** One stdio MCP server the operator allows: the exact command line, and the variables a connection may set. */
export interface StdioServerEntry {
  command: string;
  args: string[];
  env: string[];
}

const StdioServerEntrySchema = z.object({
  command: z.string().min(1),
  args: z.array(z.string()).default([]),
  env: z.array(z.string().regex(/^[A-Za-z_][A-Za-z0-9_]*$/, 'must be an environment variable name')).default([]),
});

/** The order-lookup MCP server that ships with the repository: the one stdio server `npm start` allows. */
export const BUNDLED_STDIO_SERVERS: Record<string, StdioServerEntry> = {
  orders: { command: 'node', args: ['servers/orders-mcp-server.mjs'], env: [] },
};

/**
 * `MCP_STDIO_SERVERS`: JSON, or `@<path>` to a JSON file, mapping a name to `{ command, args, env }`.
 * A stdio connection runs only a command line listed here, matched exactly (never a command name
 * with arguments of a tenant's choosing: `node -e <script>` would run anything).
 */
export const stdioServers = z
  .string()
  .transform((raw, context) => {
    let text = raw;
    if (raw.startsWith('@')) {
      try {
        text = readFileSync(raw.slice(1), 'utf8');
      } catch (error) {
        context.addIssue({ code: 'custom', message: `cannot read ${raw.slice(1)}: ${errorMessage(error)}` });
        return z.NEVER;
      }
    }
    try {
      return JSON.parse(text) as unknown;
    } catch {
      context.addIssue({ code: 'custom', message: 'must be JSON (or @<path> to a JSON file)' });
      return z.NEVER;
    }
  })
  .pipe(z.record(z.string().min(1).max(64), StdioServerEntrySchema));
