import type { StdioServerEntry } from '../platform/config.js';

/** The catalogue entry whose command and arguments equal the spec's exactly, if any. */
export function catalogueEntryOf(
  servers: Record<string, StdioServerEntry>,
  spec: { command?: string | null; args?: string[] },
): StdioServerEntry | undefined {
  const args = spec.args ?? [];
  return Object.values(servers).find(
    (entry) => entry.command === spec.command && entry.args.length === args.length && entry.args.every((arg, index) => arg === args[index]),
  );
}
