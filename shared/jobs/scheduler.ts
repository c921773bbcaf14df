import { createHash } from 'node:crypto';
import type { CreateScheduleCommandInput, SchedulerClient } from '@aws-sdk/client-scheduler';
import type { Clock } from '../platform/clock.js';
import type { JobMessage } from './ledger.js';
import type { JobQueue } from './queue.js';

/** Sends a job at a given time: the timed conversation moves. */
export interface Scheduler {
  /** Creates or replaces the schedule `name`, which sends `message` to its queue at `at`. */
  schedule(name: string, at: Date, message: JobMessage): Promise<void>;
  /** Removes the schedule `name` if it exists. */
  cancel(name: string): Promise<void>;
}

/**
 * A deterministic schedule name per conversation and move (EventBridge names: at most 64 of
 * `[0-9a-zA-Z-_.]`): the same conversation and move always name the same schedule, so a new
 * message replaces the pending one instead of adding another.
 */
export function scheduleName(move: string, workspaceId: string, conversationId: string): string {
  const digest = createHash('sha256').update(`${workspaceId}\u0000${conversationId}`).digest('hex').slice(0, 40);
  return `${move}-${digest}`.slice(0, 64);
}

/** `at(yyyy-mm-ddThh:mm:ss)` in UTC, rounded up to the next whole second. */
export function atExpression(at: Date): string {
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

  async schedule(name: string, at: Date, message: JobMessage): Promise<void> {
    const { client, ConflictException, CreateScheduleCommand, UpdateScheduleCommand } = await this.sdk();
    const input: CreateScheduleCommandInput = {
      Name: name,
      GroupName: this.options.groupName,
      ScheduleExpression: atExpression(at),
      ScheduleExpressionTimezone: 'UTC',
      FlexibleTimeWindow: { Mode: 'OFF' },
      ActionAfterCompletion: 'DELETE',
      Target: {
        Arn: this.options.targetArn,
        RoleArn: this.options.roleArn,
        Input: JSON.stringify(message),
        RetryPolicy: { MaximumRetryAttempts: 10, MaximumEventAgeInSeconds: 86_400 },
      },
    };
    try {
      await client.send(new CreateScheduleCommand(input));
    } catch (error) {
      if (!(error instanceof ConflictException)) throw error;
      await client.send(new UpdateScheduleCommand(input));
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

/**
 * Local schedules: in-process timers that enqueue the job when due. They do not survive a
 * restart; the periodic sweep finds the conversations whose move is overdue and enqueues them.
 */
export class LocalScheduler implements Scheduler {
  private readonly timers = new Map<string, NodeJS.Timeout>();

  constructor(
    private readonly queue: JobQueue,
    private readonly clock: Clock,
    private readonly onError: (error: unknown) => void,
  ) {}

  async schedule(name: string, at: Date, message: JobMessage): Promise<void> {
    await this.cancel(name);
    const arm = () => {
      const wait = at.getTime() - this.clock.now().getTime();
      const timer = setTimeout(() => {
        if (wait > MAX_TIMER_MS) return arm();
        this.timers.delete(name);
        this.queue.enqueue(message).catch(this.onError);
      }, Math.max(0, Math.min(wait, MAX_TIMER_MS)));
      timer.unref();
      this.timers.set(name, timer);
    };
    arm();
  }

  async cancel(name: string): Promise<void> {
    const timer = this.timers.get(name);
    if (timer) clearTimeout(timer);
    this.timers.delete(name);
  }

  stop(): void {
    for (const timer of this.timers.values()) clearTimeout(timer);
    this.timers.clear();
  }
}
