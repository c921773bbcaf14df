import { describe, expect, it } from 'vitest';
import { ModelClientCache } from '../../shared/models/providers.js';

const config = {
  anthropicApiKey: undefined,
  anthropicBaseUrl: 'http://127.0.0.1:9',
  awsRegion: 'eu-west-1',
  modelTimeoutMs: 1_000,
  modelMaxRetries: 0,
  allowServiceModelKey: false,
  otelCaptureContent: false,
  modelClientCacheSize: 10,
};

describe('ModelClientCache', () => {
  it('keeps at most modelClientCacheSize clients however many keys tenants bring, the least recently used dropped first', () => {
    const models = new ModelClientCache(config);
    const kept = models.clientFor({ apiKey: 'sk-kept' });
    const first = models.clientFor({ apiKey: 'sk-tenant-0' });
    for (let index = 1; index < 1_000; index += 1) {
      models.clientFor({ apiKey: `sk-tenant-${index}` });
      // One key in steady use: it is never the least recently used.
      if (index % 5 === 0) expect(models.clientFor({ apiKey: 'sk-kept' })).toBe(kept);
    }
    expect(models.size).toBe(10);
    // The newest keys are still there (the same client)...
    const newest = models.clientFor({ apiKey: 'sk-tenant-999' });
    expect(models.clientFor({ apiKey: 'sk-tenant-999' })).toBe(newest);
    expect(models.clientFor({ apiKey: 'sk-kept' })).toBe(kept);
    // ...an old one was dropped: asking again makes a new client, and the cache stays at its cap.
    const again = models.clientFor({ apiKey: 'sk-tenant-0' });
    expect(again).not.toBe(first);
    expect(models.clientFor({ apiKey: 'sk-tenant-0' })).toBe(again);
    expect(models.size).toBe(10);
  });

  it('gives each key its own client, and the same client for the same key', () => {
    const models = new ModelClientCache(config);
    const a = models.clientFor({ apiKey: 'sk-a' });
    expect(models.clientFor({ apiKey: 'sk-b' })).not.toBe(a);
    expect(models.clientFor({ apiKey: 'sk-a' })).toBe(a);
  });
});
