import type { JobMessage } from '../../shared/jobs/ledger.js';
import type { JobQueue } from '../../shared/jobs/queue.js';
import type { ScheduleOptions, Scheduler } from '../../shared/jobs/scheduler.js';

/** Schedules that fire only when a test says so, so time-based tests run on the test clock. */
export class ManualScheduler implements Scheduler {
  readonly pending = new Map<string, { at: Date; message: JobMessage }>();
  readonly cancelled: string[] = [];
  /** Every call to `schedule`, in order: the name, whether a pending one was expected, and whether it stays after firing. */
  readonly calls: { name: string; replaces: boolean; kept: boolean }[] = [];

  /** `queue`: where due schedules are sent, as EventBridge sends them to SQS. */
  constructor(private readonly queue?: JobQueue) {}

  async schedule(name: string, at: Date, message: JobMessage, options: ScheduleOptions = {}): Promise<void> {
    this.calls.push({ name, replaces: options.replaces ?? false, kept: options.kept ?? false });
    this.pending.set(name, { at, message });
  }

  async cancel(name: string): Promise<void> {
    if (this.pending.delete(name)) this.cancelled.push(name);
  }

  /** Sends every schedule due at `now` to the queue (as EventBridge would), and forgets it. */
  async fireDue(now: Date): Promise<JobMessage[]> {
    const due = [...this.pending.entries()].filter(([, entry]) => entry.at.getTime() <= now.getTime());
    for (const [name, entry] of due) {
      this.pending.delete(name);
      await this.queue?.enqueue(entry.message);
    }
    return due.map(([, entry]) => entry.message);
  }
}
