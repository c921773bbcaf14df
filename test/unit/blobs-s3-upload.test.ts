import { afterEach, describe, expect, it, vi } from 'vitest';
import { S3BlobStore } from '../../shared/platform/blobs-s3.js';
import { wallClock } from '../support/clock.js';

/*
 * An upload's target on AWS (issue 49: files up to 20 MB, past the 6 MB a Lambda request takes): a
 * presigned POST to the bucket whose policy, signed with the function's credentials, names the very
 * key and bounds the file's size, so S3 itself refuses another key or a larger file.
 */

afterEach(() => {
  vi.unstubAllEnvs();
});

describe('S3 upload targets', () => {
  it('signs a POST policy for one key, a size of 1 to the said bytes, for the time given', async () => {
    vi.stubEnv('AWS_ACCESS_KEY_ID', 'AKIAEXAMPLEEXAMPLE12');
    vi.stubEnv('AWS_SECRET_ACCESS_KEY', 'example-secret-key-example-secret-key-000');
    const store = new S3BlobStore('knowledge-files', 'eu-west-1');
    // The presigner signs with the machine's time, as S3 checks it.
    const before = wallClock.now().getTime();
    const target = await store.uploadTarget('uploads/org1/ws1/ku1', 7_000_000, 900);
    expect(new URL(target.url).host).toBe('knowledge-files.s3.eu-west-1.amazonaws.com');
    expect(target.fields.key).toBe('uploads/org1/ws1/ku1');
    expect(target.fields['X-Amz-Signature']).toMatch(/^[0-9a-f]{64}$/);
    const policy = JSON.parse(Buffer.from(target.fields.Policy ?? '', 'base64').toString('utf8')) as {
      expiration: string;
      conditions: unknown[];
    };
    expect(policy.conditions).toContainEqual(['content-length-range', 1, 7_000_000]);
    expect(policy.conditions).toContainEqual({ key: 'uploads/org1/ws1/ku1' });
    expect(policy.conditions).toContainEqual({ bucket: 'knowledge-files' });
    const expires = Date.parse(policy.expiration) - before;
    expect(expires).toBeGreaterThan(890_000);
    expect(expires).toBeLessThan(910_000);
    // The secret key never travels: the fields carry the access key's id and the signature only.
    expect(JSON.stringify(target)).not.toContain('example-secret-key');
  });
});
