declare module 'dynalite' {
  import type { Server } from 'node:http';

  interface DynaliteOptions {
    /** leveldb directory; in memory when absent. */
    path?: string;
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    maxItemSizeKb?: number;
  }

  export default function dynalite(options?: DynaliteOptions): Server;
}
