import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { GetItemCommand, PutItemCommand, QueryCommand } from '@aws-sdk/client-dynamodb';
import { describe, expect, it } from 'vitest';
import { ensureTable } from '../../shared/platform/table-create.js';
import { withStore } from '../support/embedded-store.js';

/**
 * The embedded store: dynalite through its public interface (its HTTP server on a loopback port),
 * reached by the service's store client. What is written is kept on disk, across a close and across
 * a process killed the moment its writes were answered.
 */

const TableName = 'embedded-test';
const key = (sk: string) => ({ pk: { S: 'P' }, sk: { S: sk } });

describe('the embedded store', () => {
  it('keeps nothing in memory mode once closed, and answers a missing table as DynamoDB does', async () => {
    await withStore(null, async (client) => {
      await ensureTable(client, TableName);
      await client.send(new PutItemCommand({ TableName, Item: { ...key('a'), n: { N: '1' } } }));
      expect((await client.send(new GetItemCommand({ TableName, Key: key('a') }))).Item).toEqual({ ...key('a'), n: { N: '1' } });
    });
    await withStore(null, async (client) => {
      await expect(client.send(new GetItemCommand({ TableName, Key: key('a') }))).rejects.toMatchObject({
        name: 'ResourceNotFoundException',
      });
    });
  });

  it('keeps what it was given: data written in the store is read back after the store is reopened', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'embedded-store-'));
    try {
      await withStore(dir, async (client) => {
        await ensureTable(client, TableName);
        await client.send(new PutItemCommand({ TableName, Item: { ...key('kept'), n: { N: '7' } } }));
      });
      await withStore(dir, async (client) => {
        expect(await client.send(new GetItemCommand({ TableName, Key: key('kept') }))).toMatchObject({ Item: { n: { N: '7' } } });
        expect((await client.send(new GetItemCommand({ TableName, Key: key('never written') }))).Item).toBeUndefined();
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});

describe('the embedded store on disk', () => {
  it('has in leveldb every write it has answered, even if the process is killed the moment after', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'wap-killed-'));
    try {
      // In a process of its own (test/fixtures/store-killed.ts), killed with SIGKILL once its 30 writes are answered.
      const signal = await new Promise<string | null>((resolve) => {
        const child = execFile(process.execPath, ['--import', 'tsx', 'test/fixtures/store-killed.ts', dir, '30'], { timeout: 20_000 });
        child.once('exit', (_code, killedBy) => resolve(killedBy));
      });
      expect(signal).toBe('SIGKILL');
      await withStore(dir, async (client) => {
        const { Items } = await client.send(
          new QueryCommand({ TableName: 'killed', KeyConditionExpression: 'pk = :p', ExpressionAttributeValues: { ':p': { S: 'P' } } }),
        );
        expect(Items).toHaveLength(30);
      });
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
