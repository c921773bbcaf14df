import { describe, expect, it } from 'vitest';
import { isApiUrl } from '../../bin/console.js';

describe('isApiUrl', () => {
  it("sends routines' webhooks to the API, not to the console", () => {
    expect(isApiUrl('http://localhost:3000/hooks/routines/rtn_1')).toBe(true);
    expect(isApiUrl('http://localhost:3000/hooksmith')).toBe(false);
    expect(isApiUrl('http://localhost:3000/workspaces/ws-1/routines')).toBe(false);
  });
});
