import { randomBytes } from 'node:crypto';
import type { Context } from 'hono';
import { deleteCookie, getCookie, setCookie } from 'hono/cookie';
import { CALLBACK_PATH } from './config.js';

/*
 * The browser a sign-in belongs to (login CSRF). The start sets a random value in a cookie that only
 * the callback receives (HttpOnly, SameSite=Lax: a top-level redirect from the provider carries it),
 * and the sign-in's state keeps its SHA-256; the callback goes on only with that cookie. A callback
 * URL an attacker made with their own identity and sent to someone else is then refused in the
 * victim's browser, which holds no cookie, or the cookie of a sign-in of its own. One sign-in at a
 * time per browser: a second start replaces the cookie of the first.
 */

const BINDING_COOKIE = 'service_sso';

export interface Binding {
  value: string;
  /** Sent only over https when the callback is https (a local http service keeps a usable cookie). */
  secure: boolean;
  maxAge: number;
}

/** A new binding for a sign-in whose callback is `redirectUri`, as long-lived as its state. */
export function newBinding(redirectUri: string, seconds: number): Binding {
  return { value: randomBytes(32).toString('base64url'), secure: new URL(redirectUri).protocol === 'https:', maxAge: seconds };
}

export function setBindingCookie(c: Context, binding: Binding): void {
  setCookie(c, BINDING_COOKIE, binding.value, {
    httpOnly: true,
    sameSite: 'Lax',
    path: CALLBACK_PATH,
    secure: binding.secure,
    maxAge: binding.maxAge,
  });
}

export function bindingOf(c: Context): string | undefined {
  return getCookie(c, BINDING_COOKIE);
}

/** Once the sign-in is done: the cookie has nothing left to bind. */
export function clearBindingCookie(c: Context): void {
  deleteCookie(c, BINDING_COOKIE, {
    path: CALLBACK_PATH,
    httpOnly: true,
    sameSite: 'Lax',
    secure: new URL(c.req.url).protocol === 'https:',
  });
}
