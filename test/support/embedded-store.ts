import { startEmbeddedStore } from '../../bin/local-runtime.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';

export type StoreClient = ReturnType<typeof createDynamoClient>;

/** An embedded store on `dir` (in memory for null) and a client to it, closed (client first) after `use`. */
export async function withStore<T>(dir: string | null, use: (client: StoreClient) => Promise<T>): Promise<T> {
  const store = await startEmbeddedStore(dir);
  const client = createDynamoClient({ awsRegion: 'local' }, store.endpoint);
  try {
    return await use(client);
  } finally {
    client.destroy();
    await store.close();
  }
}
