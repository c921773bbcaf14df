import { describe, expect, it } from 'vitest';
import { signInTarget } from '../../web/src/app/sign-in-target.js';

describe('signInTarget', () => {
  it('goes back to the page of this console that asked, with its query', () => {
    expect(signInTarget('/workspaces/ws-support/conversations?status=open')).toBe('/workspaces/ws-support/conversations?status=open');
    expect(signInTarget('/org/users')).toBe('/org/users');
    // An encoded slash in the query is a value, not a path.
    expect(signInTarget('/workspaces/ws-a/conversations?tool=docs%2Fsearch')).toBe('/workspaces/ws-a/conversations?tool=docs%2Fsearch');
    expect(signInTarget('/workspaces/ws-a/../ws-b')).toBe('/workspaces/ws-b');
  });

  it('goes to the workspaces without a next, or with an empty one', () => {
    expect(signInTarget(null)).toBe('/chat');
    expect(signInTarget('')).toBe('/chat');
  });

  it.each([
    ['a scheme-relative URL', '//evil.example'],
    ['a backslash read as a slash', '/\\evil.example'],
    ['a backslash anywhere', '/workspaces\\..\\\\evil.example'],
    ['dot segments that leave two slashes', '/..//evil.example'],
    ['encoded dot segments', '/%2e%2e//evil.example'],
    ['encoded slashes', '/%2f%2fevil.example'],
    ['encoded backslashes', '/%5c%5cevil.example'],
    ['an encoded slash before a query', '/%2F%2Fevil.example?next=/workspaces'],
    ['an absolute URL', 'https://evil.example/workspaces'],
    ['an absolute URL of this scheme', 'http:evil.example'],
    ['a script', 'javascript:alert(document.cookie)'],
    ['a data URL', 'data:text/html,<script>alert(1)</script>'],
    ['a relative path', 'evil.example/workspaces'],
    ['a tab inside the slashes', '/\t/evil.example'],
    ['a line feed inside the slashes', '/\n/evil.example'],
    ['a null character', '/\u0000/evil.example'],
    ['a leading space', ' //evil.example'],
  ])('refuses %s (%j): to the workspaces instead', (_name, next) => {
    expect(signInTarget(next)).toBe('/chat');
  });
});
