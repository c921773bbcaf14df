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

/** Where single sign-on should land, kept in the tab while the browser is at the identity provider. */
const SSO_TARGET_KEY = 'wc-sso-next';
/** Longer than signing in at a provider takes; a target older than this is forgotten. */
const SSO_TARGET_TTL_MS = 15 * 60_000;

/**
 * Single sign-on comes back to `/` (the API's callback knows no `next`): the page that asked for
 * signing in (`next`) is kept in this tab's session storage before the browser leaves, and
 * `ssoTarget` finds it when `/` opens signed in.
 */
export function keepSsoTarget(next: string | null): void {
  try {
    if (next) sessionStorage.setItem(SSO_TARGET_KEY, JSON.stringify({ next, at: Date.now() }));
    else sessionStorage.removeItem(SSO_TARGET_KEY);
  } catch {
    // No storage (a private window's quota): single sign-on lands on the chat, as without a target.
  }
}

/** The page single sign-on was asked for (checked as `signInTarget` checks any `next`); null when none or stale. */
export function ssoTarget(): string | null {
  try {
    const kept = sessionStorage.getItem(SSO_TARGET_KEY);
    if (!kept) return null;
    const { next, at } = JSON.parse(kept) as { next?: unknown; at?: unknown };
    if (typeof next !== 'string' || typeof at !== 'number' || Date.now() - at > SSO_TARGET_TTL_MS) return null;
    return signInTarget(next);
  } catch {
    return null;
  }
}

/** Once landed, the kept page is forgotten: the next visit to `/` opens the chat. */
export function forgetSsoTarget(): void {
  keepSsoTarget(null);
}
