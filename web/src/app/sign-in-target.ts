/** Where signing in goes when it was not asked for a page (or was asked for one that is not ours). */
const DEFAULT_TARGET = '/chat';

/** A stand-in origin to resolve against: whatever changes it was never a path of this console. */
const PLACEHOLDER_ORIGIN = 'http://x.invalid';

/**
 * Backslashes (read as slashes by URL parsers) and control characters anywhere; encoded slashes or
 * backslashes in the path (a query may hold an encoded slash: a filter's value).
 */
function hasDisguise(text: string): boolean {
  for (const character of text) {
    const code = character.codePointAt(0) ?? 0;
    if (character === '\\' || code < 0x20 || code === 0x7f) return true;
  }
  const path = text.split(/[?#]/, 1)[0] ?? '';
  return /%(2f|5c)/i.test(path);
}

/**
 * Where to go after signing in: the `next` page that asked (`/signin?next=…`), only when it is a
 * path of this console; anything else goes to the workspaces. `next` is a link anyone can send, so
 * it must never lead to another origin: `//evil.example`, `/\evil.example`, `/..//evil.example` and
 * `/%2e%2e//evil.example` all resolve (or are navigated) to one. It must start with a single `/`,
 * hold no backslash, control character or encoded slash, and, resolved, keep the origin and a path
 * that starts with a single `/`; the resolved path (dot segments gone) is where it goes.
 */
export function signInTarget(next: string | null): string {
  if (!next?.startsWith('/') || next.startsWith('//') || hasDisguise(next)) return DEFAULT_TARGET;
  let url: URL;
  try {
    url = new URL(next, PLACEHOLDER_ORIGIN);
  } catch {
    return DEFAULT_TARGET;
  }
  if (url.origin !== PLACEHOLDER_ORIGIN || !url.pathname.startsWith('/') || url.pathname.startsWith('//')) return DEFAULT_TARGET;
  return `${url.pathname}${url.search}`;
}
