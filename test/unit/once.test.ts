import { describe, expect, it } from 'vitest';
import { once } from '../../shared/platform/once.js';

describe('once', () => {
  it('makes the value on first use and shares it; a failure is not kept, the next call makes it again', async () => {
    let calls = 0;
    const value = once(async () => {
      calls += 1;
      if (calls === 1) throw new Error('first load failed');
      return { made: calls };
    });
    await expect(value()).rejects.toThrow('first load failed');
    const [a, b] = await Promise.all([value(), value()]);
    expect(a).toBe(b);
    expect(await value()).toEqual({ made: 2 });
    expect(calls).toBe(2);
  });
});
