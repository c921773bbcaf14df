import { createHash } from 'node:crypto';
import type { CreateScheduleCommandInput, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Clock } from '../platform/clock.js';
import type { JobMessage } from './ledger.js';

/** Sends a job at a given time: the timed conversation moves. */
export interface Scheduler {
  /**
   * Creates or replaces the schedule `name`, which sends `message` to its queue at `at`.
   * `replaces`: a pending schedule of this name is expected (an open conversation's cold move), so
   * replacing it is tried first; either way the outcome is the same. `kept`: the schedule stays
   * after it fires, to be moved to a next time (a routine's: deleting it on completion could
   * delete the next time set meanwhile).
   */
  schedule(name: string, at: Date, message: JobMessage, options?: ScheduleOptions): Promise<void>;
  /** Removes the schedule `name` if it exists. */
  cancel(name: string): Promise<void>;
}

export interface ScheduleOptions {
  replaces?: boolean;
  kept?: boolean;
}

/**
 * A deterministic schedule name per conversation and move (EventBridge names: at most 64 of
 * `[0-9a-zA-Z-_.]`): the same conversation and move always name the same schedule, so a new
 * message replaces the pending one instead of adding another. The organisation is part of it:
 * workspace ids (and the conversation ids callers choose) are unique only within one.
 */
export function scheduleName(move: string, orgId: string, workspaceId: string, conversationId: string): string {
  const digest = createHash('sha256').update(`${orgId}\u0000${workspaceId}\u0000${conversationId}`).digest('hex').slice(0, 40);
  return `${move}-${digest}`.slice(0, 64);
}

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, rounded up to the next whole second. */
function atExpression(at: Date): string {
  const seconds = new Date(Math.ceil(at.getTime() / 1000) * 1000);
  return `at(${seconds.toISOString().slice(0, 19)})`;
}

export interface EventBridgeSchedulerOptions {
  groupName: string;
  /** The lifecycle queue's ARN: the schedules' target. */
  targetArn: string;
  /** The role EventBridge Scheduler assumes to send to the queue. */
  roleArn: string;
}

/**
 * One-time EventBridge Scheduler schedules that send the job message to the lifecycle queue and
 * delete themselves after running. A schedule whose name exists is updated instead.
 */
export class EventBridgeScheduler implements Scheduler {
  constructor(
    /** The client, or how to make it (loaded on first use, like the SQS client). */
    private readonly client: SchedulerClient | (() => Promise<SchedulerClient>),
    private readonly options: EventBridgeSchedulerOptions,
  ) {}

  private async sdk() {
    const client = typeof this.client === 'function' ? await this.client() : this.client;
    return { client, ...(await import('@aws-sdk/client-scheduler')) };
  }

  async schedule(name: string, at: Date, message: JobMessage, options: ScheduleOptions = {}): Promise<void> {
    const { client, ConflictException, CreateScheduleCommand, ResourceNotFoundException, UpdateScheduleCommand } = await this.sdk();
    const input: CreateScheduleCommandInput = {
      Name: name,
      GroupName: this.options.groupName,
      ScheduleExpression: atExpression(at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: options.kept ? 'NONE' : 'DELETE',
      Target: {
        Arn: this.options.targetArn,
        RoleArn: this.options.roleArn,
        Input: JSON.stringify(message),
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 86_400 },
      },
    };
    const create = async () => {
      try {
        await client.send(new CreateScheduleCommand(input));
      } catch (error) {
        if (!(error instanceof ConflictException)) throw error;
        await client.send(new UpdateScheduleCommand(input));
      }
    };
    // One call where two were: a conversation's later queries replace the move its first one planned.
    if (!options.replaces) return create();
    try {
      await client.send(new UpdateScheduleCommand(input));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
      await create();
    }
  }

  async cancel(name: string): Promise<void> {
    const { client, DeleteScheduleCommand, ResourceNotFoundException } = await this.sdk();
    try {
      await client.send(new DeleteScheduleCommand({ Name: name, GroupName: this.options.groupName }));
    } catch (error) {
      if (!(error instanceof ResourceNotFoundException)) throw error;
    }
  }
}

const MAX_TIMER_MS = 2 ** 31 - 1;
/** How long after a failed wake-up (the store unreachable) the next one is tried. */
const RETRY_MS = 5_000;
/**
 * The least time between a wake-up and the next one it arms: moves falling due a few
 * milliseconds apart (many conversations going cold under load) are sent together, by one
 * sweep, instead of one sweep each.
 */
const MIN_WAKE_GAP_MS = 1_000;

/**
 * The local runtime's scheduler, kept in the store rather than in memory: every scheduled move is
 * already written to the due index (GSI3) with its due time, so the scheduler holds one timer, for
 * the earliest due time it knows of. When it fires, `wake` sends every move that is due (the
 * sweep) and answers the next due time in the index, for which the timer is armed again. Memory
 * stays the same however many conversations are open, and nothing is lost on a restart: `wakeNow`
 * at start sends what fell due meanwhile. A schedule replaced or cancelled needs nothing here, since the index holds each
 * conversation's current due time only; an early wake-up finds nothing due and re-arms.
 */
export class DueIndexScheduler implements Scheduler {
  private timer: NodeJS.Timeout | undefined;
  /** When the timer fires (epoch ms), while one is armed. */
  private armedAt: number | undefined;
  private stopped = false;
  /** The wake-up under way, if any. */
  private waking: Promise<void> | undefined;

  constructor(
    private readonly clock: Clock,
    /** Sends what is due at `now`, answers the next due time after it (undefined: nothing pending). */
    private readonly wake: (now: Date) => Promise<Date | undefined>,
    private readonly onError: (error: unknown) => void,
  ) {}

  /** Wakes at once: sends whatever is due (fell due while the runtime was stopped) and arms for the next. */
  wakeNow(): void {
    this.arm(this.clock.now().getTime());
  }

  async schedule(_name: string, at: Date, _message: JobMessage): Promise<void> {
    this.arm(at.getTime());
  }

  async cancel(): Promise<void> {}

  /** Disarms, and waits for a wake-up under way (it reads the store, which closes next). */
  async stop(): Promise<void> {
    this.stopped = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    this.armedAt = undefined;
    await this.waking;
  }

  /** Arms the timer for `at` unless it is already armed for an earlier time. */
  private arm(at: number): void {
    if (this.stopped || (this.armedAt !== undefined && this.armedAt <= at)) return;
    clearTimeout(this.timer);
    this.armedAt = at;
    const wait = Math.max(0, Math.min(at - this.clock.now().getTime(), MAX_TIMER_MS));
    this.timer = setTimeout(() => {
      const waking = this.fire().finally(() => {
        if (this.waking === waking) this.waking = undefined;
      });
      this.waking = waking;
    }, wait);
    this.timer.unref();
  }

  private async fire(): Promise<void> {
    const at = this.armedAt ?? 0;
    this.timer = undefined;
    this.armedAt = undefined;
    const now = this.clock.now();
    // A timer capped at ~24.8 days fires early: arm again for the real time.
    if (at > now.getTime()) return this.arm(at);
    try {
      const next = await this.wake(now);
      // A schedule made during the wake-up armed its own time; this only arms an earlier one.
      if (next) this.arm(Math.max(next.getTime(), now.getTime() + MIN_WAKE_GAP_MS));
    } catch (error) {
      this.onError(error);
      this.arm(now.getTime() + RETRY_MS);
    }
  }
}
