import type { AddressInfo } from 'node:net';
import dynalite from 'dynalite';
import { failToParent, serveParent } from './child.js';

/**
 * dynalite (in memory, its public `listen`) in a process of its own, for the latency proxy of
 * `latency-proxy.ts`: its work on a round's calls then no longer holds the proxy's clock, which
 * stamps each call as it arrives and releases its answer on time (child.ts: the protocol).
 */
try {
  const store = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => store.listen(0, '127.0.0.1', resolve));
  const { port } = store.address() as AddressInfo;
  serveParent({ port }, () => new Promise<void>((resolve) => store.close(() => resolve())));
} catch (error) {
  failToParent(error);
}
