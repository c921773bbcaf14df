import { randomUUID } from 'node:crypto';
import {
  ConflictException,
  CreateScheduleCommand,
  DeleteScheduleCommand,
  ResourceNotFoundException,
  SchedulerClient,
  UpdateScheduleCommand,
  ValidationException,
} from '@aws-sdk/client-scheduler';
import { ChangeMessageVisibilityCommand, SQSClient, SendMessageCommand } from '@aws-sdk/client-sqs';
import type { SQSRecord } from 'aws-lambda';
import { mockClient } from 'aws-sdk-client-mock';
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { getJob, recordJob, type JobMessage, type QueueName } from '../../shared/jobs/ledger.js';
import { EventBridgeScheduler, scheduleName } from '../../shared/jobs/scheduler.js';
import { SqsJobQueue, handleSqsBatch, type QueueUrls } from '../../shared/jobs/sqs.js';
import { listQueues } from '../../shared/jobs/ops.js';
import { RunLaterError, type JobHandler, type JobHandlers, type WorkerSettings } from '../../shared/jobs/worker.js';
import { createTestContext, type TestContext } from '../support/context.js';

const URLS: QueueUrls = {
  lifecycle: 'https://sqs.us-east-1.amazonaws.com/123456789012/lifecycle',
  'cold-messages': 'https://sqs.us-east-1.amazonaws.com/123456789012/cold-messages',
  'conversation-stats': 'https://sqs.us-east-1.amazonaws.com/123456789012/conversation-stats',
  evals: 'https://sqs.us-east-1.amazonaws.com/123456789012/evals',
  knowledge: 'https://sqs.us-east-1.amazonaws.com/123456789012/knowledge',
  routines: 'https://sqs.us-east-1.amazonaws.com/123456789012/routines',
};
const arnOf = (queue: QueueName) => `arn:aws:sqs:us-east-1:123456789012:${queue}`;
const urlOfArn = (arn: string | undefined) =>
  (Object.keys(URLS) as QueueName[]).map((queue) => (arnOf(queue) === arn ? URLS[queue] : undefined)).find(Boolean);

const sqsMock = mockClient(SQSClient);
const schedulerMock = mockClient(SchedulerClient);

let t: TestContext;
beforeAll(async () => {
  t = await createTestContext();
});
afterAll(async () => {
  await t?.close();
  sqsMock.restore();
  schedulerMock.restore();
});
beforeEach(() => {
  sqsMock.reset();
  schedulerMock.reset();
  sqsMock.on(SendMessageCommand).resolves({ MessageId: 'm-1' });
  sqsMock.on(ChangeMessageVisibilityCommand).resolves({});
});

const orgId = () => `org_${randomUUID()}`;

describe('SqsJobQueue', () => {
  const sqs = new SQSClient({ region: 'us-east-1' });
  const queue = () => new SqsJobQueue(sqs, URLS, t.deps);

  it.each([
    [0, 0],
    [1, 1],
    [1000, 1],
    [1001, 2],
    [4_500, 5],
    [900_000, 900],
    [3_600_000, 900],
  ])('enqueue with a delay of %i ms sends one message to the queue with DelaySeconds %i', async (delayMs, delaySeconds) => {
    const org = orgId();
    const message: JobMessage = {
      jobId: `stats-${org}-ws_1-conv_1`,
      queue: 'cold-messages',
      orgId: org,
      data: { workspaceId: 'ws_1', conversationId: 'conv_1', n: 1 },
    };
    expect(await queue().enqueue(message, delayMs)).toBe(true);

    const calls = sqsMock.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(Object.keys(input).sort()).toEqual(['DelaySeconds', 'MessageBody', 'QueueUrl']);
    expect(input.QueueUrl).toBe(URLS['cold-messages']);
    expect(input.DelaySeconds).toBe(delaySeconds);
    expect(JSON.parse(input.MessageBody ?? '')).toEqual({
      jobId: message.jobId,
      queue: 'cold-messages',
      orgId: message.orgId,
      data: message.data,
    });
    // The ledger holds the job before the message points at it.
    expect(await getJob(t.deps, message.jobId)).toMatchObject({ state: delayMs > 0 ? 'delayed' : 'waiting', attempts: 0 });
    expect(sqsMock.calls()).toHaveLength(1);
  });

  it('sends to the queue of the job kind', async () => {
    for (const name of ['lifecycle', 'cold-messages'] as const) {
      sqsMock.resetHistory();
      await queue().enqueue({ jobId: `${name}-${randomUUID()}`, queue: name, orgId: orgId(), data: {} });
      expect(sqsMock.commandCalls(SendMessageCommand).map((call) => call.args[0].input.QueueUrl)).toEqual([URLS[name]]);
    }
  });

  it('does not send a job id twice; redeliver sends it again at once', async () => {
    const org = orgId();
    const message: JobMessage = {
      jobId: `stats-${org}-ws_1-conv_2`,
      queue: 'cold-messages',
      orgId: org,
      data: { workspaceId: 'ws_1', conversationId: 'conv_2' },
    };
    const jobs = queue();
    expect(await jobs.enqueue(message, 2_000)).toBe(true);
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(1);

    expect(await jobs.enqueue(message)).toBe(false);
    expect(await jobs.enqueue(message, 5_000)).toBe(false);
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(1);

    await jobs.redeliver(message);
    const calls = sqsMock.commandCalls(SendMessageCommand);
    expect(calls).toHaveLength(2);
    expect(calls[1]!.args[0].input).toEqual({
      QueueUrl: URLS['cold-messages'],
      MessageBody: JSON.stringify(message),
      DelaySeconds: 0,
    });
    expect(JSON.parse(calls[1]!.args[0].input.MessageBody ?? '')).toEqual(message);
  });

  it('sends a timed move without writing the ledger, unless the ledger holds it (it failed once)', async () => {
    const move: JobMessage = { jobId: `lifecycle-${randomUUID()}`, queue: 'lifecycle', orgId: orgId(), data: {} };
    const jobs = queue();
    expect(await jobs.enqueue(move)).toBe(true);
    expect(await jobs.enqueue(move)).toBe(true);
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(2);
    expect(await getJob(t.deps, move.jobId)).toBeUndefined();

    await recordJob(t.deps, move, 0, { error: 'store throttled', retryInMs: 4_000 });
    expect(await jobs.enqueue(move)).toBe(false);
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(2);
  });

  it('does not send when the ledger write fails', async () => {
    // The ledger's create-if-absent put is the enqueue's first write.
    const spy = vi.spyOn(t.deps.table, 'put').mockRejectedValueOnce(new Error('store down'));
    try {
      await expect(queue().enqueue({ jobId: `x-${randomUUID()}`, queue: 'cold-messages', orgId: orgId(), data: {} })).rejects.toThrow(
        'store down',
      );
      expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
    } finally {
      spy.mockRestore();
    }
  });
});

describe('handleSqsBatch', () => {
  const sqs = new SQSClient({ region: 'us-east-1' });
  const settings: WorkerSettings = { maxAttempts: 3, retryBaseMs: 4000 };
  const runs: string[] = [];
  const handler: JobHandler<{ key: string; mode: 'ok' | 'fail' | 'later' }> = {
    schema: z.object({ key: z.string(), mode: z.enum(['ok', 'fail', 'later']) }),
    async run(_deps, data) {
      runs.push(data.key);
      if (data.mode === 'fail') throw new Error(`boom ${data.key}`);
      if (data.mode === 'later') throw new RunLaterError(`not yet: ${data.key}`, 30_000);
    },
  };
  const handlers: JobHandlers = {
    lifecycle: handler,
    'cold-messages': handler,
    'conversation-stats': handler,
    evals: handler,
    knowledge: handler,
    routines: handler,
  };
  beforeEach(() => {
    runs.length = 0;
  });

  const jobMessage = (key: string, mode: 'ok' | 'fail' | 'later'): JobMessage => ({
    jobId: `job-${key}`,
    queue: 'cold-messages',
    orgId: orgId(),
    data: { key, mode },
  });
  const record = (messageId: string, body: unknown, receiptHandle = `rh-${messageId}`): SQSRecord => ({
    messageId,
    receiptHandle,
    body: typeof body === 'string' ? body : JSON.stringify(body),
    attributes: { ApproximateReceiveCount: '1', SentTimestamp: '0', SenderId: 'sender', ApproximateFirstReceiveTimestamp: '0' },
    messageAttributes: {},
    md5OfBody: '',
    eventSource: 'aws:sqs',
    eventSourceARN: arnOf('cold-messages'),
    awsRegion: 'us-east-1',
  });
  const run = (records: SQSRecord[], extra?: Parameters<typeof handleSqsBatch>[6]) =>
    handleSqsBatch(t.deps, handlers, settings, sqs, urlOfArn, { Records: records }, extra);

  it('runs a timed move with no ledger write; one that fails is recorded after that attempt and retried as any job', async () => {
    const move = (key: string, mode: 'ok' | 'fail'): JobMessage => ({ ...jobMessage(key, mode), queue: 'lifecycle' });
    const onLifecycle = (messageId: string, body: JobMessage, receiptHandle?: string) => ({
      ...record(messageId, body, receiptHandle),
      eventSourceARN: arnOf('lifecycle'),
    });
    const done = move(`done-${randomUUID()}`, 'ok');
    const failing = move(`failing-${randomUUID()}`, 'fail');
    const result = await run([onLifecycle('m-done', done), onLifecycle('m-failing', failing, 'receipt-failing')]);
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-failing' }] });
    expect(runs.sort()).toEqual([done.data.key, failing.data.key].sort());
    expect(await getJob(t.deps, done.jobId)).toBeUndefined();
    expect(await getJob(t.deps, failing.jobId)).toMatchObject({ state: 'delayed', attempts: 1, last_error: `boom ${failing.data.key}` });
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: URLS.lifecycle, ReceiptHandle: 'receipt-failing', VisibilityTimeout: 4 },
    ]);
    const counters = await listQueues(t.deps, done.orgId);
    expect(counters.queues.find((queue) => queue.name === 'lifecycle')).toMatchObject({ completed: 1, delayed: 0, waiting: 0, active: 0 });

    // Its next delivery goes through the ledger: the second attempt.
    t.clock.advance(4_000);
    expect(await run([onLifecycle('m-failing', failing, 'receipt-2')])).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-failing' }] });
    expect(await getJob(t.deps, failing.jobId)).toMatchObject({ state: 'delayed', attempts: 2 });
  });

  it('reports only the record to retry, after setting its visibility timeout to the backoff', async () => {
    const good = jobMessage(`good-${randomUUID()}`, 'ok');
    const retry = jobMessage(`retry-${randomUUID()}`, 'fail');
    const result = await run([
      record('m-good', good),
      record('m-retry', retry, 'receipt-of-retry'),
      record('m-not-json', '{not json'),
      record('m-not-job', { hello: 'world' }),
    ]);

    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-retry' }] });
    expect(runs.sort()).toEqual([good.data.key, retry.data.key].sort());
    const visibility = sqsMock.commandCalls(ChangeMessageVisibilityCommand);
    expect(visibility).toHaveLength(1);
    expect(visibility[0]!.args[0].input).toEqual({
      QueueUrl: URLS['cold-messages'],
      ReceiptHandle: 'receipt-of-retry',
      VisibilityTimeout: 4,
    });
    expect(sqsMock.commandCalls(SendMessageCommand)).toHaveLength(0);
    expect(await getJob(t.deps, good.jobId)).toMatchObject({ state: 'completed', attempts: 1 });
    expect(await getJob(t.deps, retry.jobId)).toMatchObject({ state: 'delayed', attempts: 1, last_error: `boom ${retry.data.key}` });
    expect(
      t.logger.records.some(
        (entry) => entry.message === 'dropping a job message that is not JSON' && entry.extra?.messageId === 'm-not-json',
      ),
    ).toBe(true);
    expect(
      t.logger.records.some((entry) => entry.message === 'dropping a message that is not a job' && entry.extra?.messageId === 'm-not-job'),
    ).toBe(true);

    // Delivered again before the backoff has passed, it goes back for the rest of the wait, uncounted.
    sqsMock.resetHistory();
    t.clock.advance(1_500);
    expect(await run([record('m-retry', retry, 'receipt-early')])).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-retry' }] });
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: URLS['cold-messages'], ReceiptHandle: 'receipt-early', VisibilityTimeout: 3 },
    ]);
    expect(await getJob(t.deps, retry.jobId)).toMatchObject({ state: 'delayed', attempts: 1 });

    // SQS delivers it again once the visibility timeout (the backoff) has passed: the backoff
    // doubles, and after the last attempt it is acknowledged as failed.
    sqsMock.resetHistory();
    t.clock.advance(2_500);
    expect(await run([record('m-retry', retry, 'receipt-2')])).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-retry' }] });
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: URLS['cold-messages'], ReceiptHandle: 'receipt-2', VisibilityTimeout: 8 },
    ]);
    sqsMock.resetHistory();
    t.clock.advance(8_000);
    expect(await run([record('m-retry', retry, 'receipt-3')])).toEqual({ batchItemFailures: [] });
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
    expect(await getJob(t.deps, retry.jobId)).toMatchObject({ state: 'failed', attempts: 3, last_error: `boom ${retry.data.key}` });
  });

  it('acknowledges a job sent back for later and sends it again as a new delayed message: waiting never takes it to the dead-letter queue', async () => {
    const later = jobMessage(`later-${randomUUID()}`, 'later');
    const body = JSON.stringify(later);
    sqsMock.resetHistory();
    expect(await run([record('m-later', body, 'receipt-later')])).toEqual({ batchItemFailures: [] });
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
    expect(sqsMock.commandCalls(SendMessageCommand).map((call) => call.args[0].input)).toEqual([
      { QueueUrl: URLS['cold-messages'], MessageBody: body, DelaySeconds: 30 },
    ]);
    expect(await getJob(t.deps, later.jobId)).toMatchObject({ state: 'delayed', attempts: 0, last_error: `not yet: ${later.data.key}` });
  });

  it('acknowledges a duplicate of a finished job without running it again', async () => {
    const good = jobMessage(`dup-${randomUUID()}`, 'ok');
    expect(await run([record('m-1', good), record('m-2', good)])).toEqual({ batchItemFailures: [] });
    expect(await run([record('m-3', good)])).toEqual({ batchItemFailures: [] });
    expect(runs).toEqual([good.data.key]);
    expect(sqsMock.calls()).toHaveLength(0);
  });

  it('reports a record whose processing hits an infrastructure error, and leaves the job to run on redelivery', async () => {
    const good = jobMessage(`infra-${randomUUID()}`, 'ok');
    // The delivery's first store call is its claim (one conditional write, no read before it).
    const spy = vi.spyOn(t.deps.table, 'updateReturningOld').mockRejectedValueOnce(new Error('store unreachable'));
    try {
      expect(await run([record('m-infra', good)])).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-infra' }] });
      expect(spy).toHaveBeenCalled();
    } finally {
      spy.mockRestore();
    }
    expect(runs).toEqual([]);
    expect(sqsMock.commandCalls(ChangeMessageVisibilityCommand)).toHaveLength(0);
    expect(t.logger.records.some((entry) => entry.message === 'job delivery failed' && entry.extra?.messageId === 'm-infra')).toBe(true);

    expect(await run([record('m-infra', good)])).toEqual({ batchItemFailures: [] });
    expect(runs).toEqual([good.data.key]);
    expect(await getJob(t.deps, good.jobId)).toMatchObject({ state: 'completed', attempts: 1 });
  });

  it('reports a retry even when its visibility timeout cannot be changed', async () => {
    sqsMock.on(ChangeMessageVisibilityCommand).rejects(new Error('throttled'));
    const retry = jobMessage(`vis-${randomUUID()}`, 'fail');
    expect(await run([record('m-vis', retry)])).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-vis' }] });
  });

  it('passes other messages to onOtherMessage and reports those it fails on', async () => {
    const seen: unknown[] = [];
    const onOtherMessage = async (body: unknown) => {
      seen.push(body);
      if ((body as { fail?: boolean }).fail) throw new Error('cannot handle');
    };
    const result = await run(
      [record('m-ok', { kind: 'other' }), record('m-bad', { kind: 'other', fail: true }), record('m-garbage', 'not json')],
      { onOtherMessage },
    );
    expect(result).toEqual({ batchItemFailures: [{ itemIdentifier: 'm-bad' }] });
    expect(seen).toEqual([{ kind: 'other' }, { kind: 'other', fail: true }]);
  });
});

describe('EventBridgeScheduler', () => {
  const options = {
    groupName: 'service-moves',
    targetArn: 'arn:aws:sqs:us-east-1:123456789012:lifecycle',
    roleArn: 'arn:aws:iam::123456789012:role/scheduler-send',
  };
  const client = new SchedulerClient({ region: 'us-east-1' });
  const scheduler = new EventBridgeScheduler(client, options);
  const message: JobMessage = {
    jobId: 'lifecycle-cold-org_1-ws_1-conv_1-2026-11-22T10:00:00.000Z',
    queue: 'lifecycle',
    orgId: 'org_1',
    data: { move: 'cold', workspaceId: 'ws_1', conversationId: 'conv_1', lastActivityAt: '2026-11-22T10:00:00.000Z' },
  };
  const expectedInput = (expression: string) => ({
    Name: 'cold-abc',
    GroupName: options.groupName,
    ScheduleExpression: expression,
    ScheduleExpressionTimezone: 'UTC',
    FlexibleTimeWindow: { Mode: 'OFF' },
    ActionAfterCompletion: 'DELETE',
    Target: expect.objectContaining({ Arn: options.targetArn, RoleArn: options.roleArn, Input: JSON.stringify(message) }),
  });

  it('creates a one-time schedule at the time rounded up to the second, in UTC, that deletes itself', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.200Z'), message);

    const calls = schedulerMock.commandCalls(CreateScheduleCommand);
    expect(calls).toHaveLength(1);
    const input = calls[0]!.args[0].input;
    expect(input).toEqual(expectedInput('at(2026-11-22T10:30:05)'));
    expect(JSON.parse(input.Target?.Input ?? '')).toEqual(message);
    expect(schedulerMock.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
  });

  it('keeps a schedule asked to stay after it fires (a routine’s, moved to its next run), replacing it in place', async () => {
    schedulerMock.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler.schedule('cold-abc', new Date('2026-11-22T10:31:00.000Z'), message, { replaces: true, kept: true });
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(0);
    const [update] = schedulerMock.commandCalls(UpdateScheduleCommand);
    expect(update?.args[0].input).toEqual({ ...expectedInput('at(2026-11-22T10:31:00)'), ActionAfterCompletion: 'NONE' });
  });

  it('does not round a whole second up', async () => {
    schedulerMock.on(CreateScheduleCommand).resolves({});
    await scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.000Z'), message);
    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]!.args[0].input.ScheduleExpression).toBe('at(2026-11-22T10:30:04)');
  });

  it('updates the schedule with the same input when one of that name exists', async () => {
    schedulerMock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    schedulerMock.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.200Z'), message);

    const created = schedulerMock.commandCalls(CreateScheduleCommand);
    const updated = schedulerMock.commandCalls(UpdateScheduleCommand);
    expect(created).toHaveLength(1);
    expect(updated).toHaveLength(1);
    expect(updated[0]!.args[0].input).toEqual(created[0]!.args[0].input);
    expect(updated[0]!.args[0].input).toEqual(expectedInput('at(2026-11-22T10:30:05)'));
  });

  it('replaces a schedule expected to exist with one UpdateSchedule, and creates it when it is gone', async () => {
    schedulerMock.on(UpdateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.200Z'), message, { replaces: true });
    expect(schedulerMock.commandCalls(UpdateScheduleCommand)).toHaveLength(1);
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(0);
    expect(schedulerMock.commandCalls(UpdateScheduleCommand)[0]!.args[0].input).toEqual(expectedInput('at(2026-11-22T10:30:05)'));

    // Gone (it ran, or was deleted): created instead, with the same input.
    schedulerMock.reset();
    schedulerMock.on(UpdateScheduleCommand).rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    schedulerMock.on(CreateScheduleCommand).resolves({ ScheduleArn: 'arn:schedule' });
    await scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.200Z'), message, { replaces: true });
    expect(schedulerMock.commandCalls(CreateScheduleCommand)[0]!.args[0].input).toEqual(expectedInput('at(2026-11-22T10:30:05)'));

    // Created by a concurrent query between the two calls: updated after all.
    schedulerMock.reset();
    schedulerMock
      .on(UpdateScheduleCommand)
      .rejectsOnce(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }))
      .resolves({});
    schedulerMock.on(CreateScheduleCommand).rejects(new ConflictException({ message: 'exists', Message: 'exists', $metadata: {} }));
    await scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.200Z'), message, { replaces: true });
    expect(schedulerMock.commandCalls(UpdateScheduleCommand)).toHaveLength(2);
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(1);
  });

  it('rethrows other errors of UpdateSchedule when replacing, without creating', async () => {
    schedulerMock
      .on(UpdateScheduleCommand)
      .rejects(new ValidationException({ message: 'bad expression', Message: 'bad expression', $metadata: {} }));
    await expect(scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.200Z'), message, { replaces: true })).rejects.toBeInstanceOf(
      ValidationException,
    );
    expect(schedulerMock.commandCalls(CreateScheduleCommand)).toHaveLength(0);
  });

  it('rethrows other errors of CreateSchedule without updating', async () => {
    schedulerMock
      .on(CreateScheduleCommand)
      .rejects(new ValidationException({ message: 'bad expression', Message: 'bad expression', $metadata: {} }));
    await expect(scheduler.schedule('cold-abc', new Date('2026-11-22T10:30:04.200Z'), message)).rejects.toBeInstanceOf(ValidationException);
    expect(schedulerMock.commandCalls(UpdateScheduleCommand)).toHaveLength(0);
  });

  it('cancel deletes the schedule by name and group', async () => {
    schedulerMock.on(DeleteScheduleCommand).resolves({});
    await scheduler.cancel('cold-abc');
    const calls = schedulerMock.commandCalls(DeleteScheduleCommand);
    expect(calls).toHaveLength(1);
    expect(calls[0]!.args[0].input).toEqual({ Name: 'cold-abc', GroupName: options.groupName });
  });

  it('cancel ignores a schedule that does not exist', async () => {
    schedulerMock.on(DeleteScheduleCommand).rejects(new ResourceNotFoundException({ message: 'gone', Message: 'gone', $metadata: {} }));
    await expect(scheduler.cancel('cold-abc')).resolves.toBeUndefined();
    expect(schedulerMock.commandCalls(DeleteScheduleCommand)).toHaveLength(1);
  });

  it('cancel rethrows other errors', async () => {
    schedulerMock.on(DeleteScheduleCommand).rejects(new ValidationException({ message: 'bad name', Message: 'bad name', $metadata: {} }));
    await expect(scheduler.cancel('cold-abc')).rejects.toBeInstanceOf(ValidationException);
    schedulerMock.on(DeleteScheduleCommand).rejects(new Error('network down'));
    await expect(scheduler.cancel('cold-abc')).rejects.toThrow('network down');
  });
});

describe('scheduleName', () => {
  const valid = /^[0-9a-zA-Z_.-]+$/;

  it('is deterministic, at most 64 valid characters, and differs per move, organisation, workspace and conversation', () => {
    const org = `org_${randomUUID()}`;
    const ws = `ws_${randomUUID()}`;
    const cid = `conv_${randomUUID()}`;
    const cold = scheduleName('cold', org, ws, cid);
    expect(scheduleName('cold', org, ws, cid)).toBe(cold);
    const names = [
      cold,
      scheduleName('close', org, ws, cid),
      scheduleName('cold', org, ws, `conv_${randomUUID()}`),
      scheduleName('close', org, ws, `conv_${randomUUID()}`),
      scheduleName('cold', org, `ws_${randomUUID()}`, cid),
      scheduleName('cold', `org_${randomUUID()}`, ws, cid),
    ];
    expect(new Set(names).size).toBe(names.length);
    for (const name of names) {
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(valid);
    }
  });

  it('differs for two organisations with the same workspace and conversation ids', () => {
    for (const move of ['cold', 'close']) {
      expect(scheduleName(move, 'org-a', 'ws-1', 'conv-1')).not.toBe(scheduleName(move, 'org-b', 'ws-1', 'conv-1'));
    }
  });

  it('stays valid for ids with other characters and of any length', () => {
    const long = 'x'.repeat(500);
    for (const [org, ws, cid] of [
      [long, long, long],
      ['org with spaces/and#symbols', 'ws with spaces/and#symbols', 'conv:ü:✓'],
      ['', '', ''],
    ] as const) {
      const name = scheduleName('close', org, ws, cid);
      expect(name.length).toBeLessThanOrEqual(64);
      expect(name).toMatch(valid);
    }
    // Joining the ids cannot make two conversations share a name.
    expect(scheduleName('cold', 'o', 'ab', 'c')).not.toBe(scheduleName('cold', 'o', 'a', 'bc'));
    expect(scheduleName('cold', 'oa', 'b', 'c')).not.toBe(scheduleName('cold', 'o', 'ab', 'c'));
  });
});
