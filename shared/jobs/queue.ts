import type { JobMessage } from './ledger.js';

/** Where jobs are sent: the SQS queues on AWS, the in-process runner locally. */
export interface JobQueue {
  /**
   * Records the job in the ledger and delivers it (after `delayMs`). A job whose id is already in
   * the ledger is not sent again: ids are the idempotency keys. Returns whether it was new.
   */
  enqueue(message: JobMessage, delayMs?: number): Promise<boolean>;
  /** Delivers a job already in the ledger again (after retry-all moved it back to waiting). */
  redeliver(message: JobMessage): Promise<void>;
  /** Forgets any pending local delivery of a job (after drain removed it); SQS drops it on receipt. */
  cancel(jobId: string): void;
}
