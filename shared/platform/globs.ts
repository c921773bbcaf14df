/** Tool-name globs (permissions, block_tool guardrails): `*` matches any run of characters, everything else itself. */
export function globToRegExp(pattern: string): RegExp {
  const escaped = pattern.split('*').map((part) => part.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${escaped.join('.*')}$`);
}
