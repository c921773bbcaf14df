/** A tool-name glob (permissions, block_tool guardrails), compiled once: answers whether a name matches. */
export type GlobMatcher = (name: string) => boolean;

/**
 * Tool-name globs: `*` matches any run of characters, everything else itself, over the whole name.
 * Matched by hand rather than through a RegExp: `^a.*a.*…b$` backtracks, and a tenant's glob of a
 * few dozen stars held the process for minutes on a 60-character name. This greedy matcher goes
 * back only to the last star, so it takes at most (pattern length × name length) steps.
 */
export function globMatcher(pattern: string): GlobMatcher {
  return (name) => {
    let p = 0;
    let n = 0;
    let star = -1;
    let resume = 0;
    while (n < name.length) {
      if (p < pattern.length && pattern[p] !== '*' && pattern[p] === name[n]) {
        p += 1;
        n += 1;
      } else if (p < pattern.length && pattern[p] === '*') {
        star = p;
        resume = n;
        p += 1;
      } else if (star >= 0) {
        p = star + 1;
        resume += 1;
        n = resume;
      } else {
        return false;
      }
    }
    while (p < pattern.length && pattern[p] === '*') p += 1;
    return p === pattern.length;
  };
}
