import Anthropic from '@anthropic-ai/sdk';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { errorReply, type FakeModel, startFakeModel, textReply } from '../support/fake-model.js';

/*
 * The fake model's prompt caching (`startFakeModel({ promptCache: true })`), through the real SDK:
 * writes, reads (whole prefix and by the 20-block look-back), the 1 024-token minimum, entry
 * lifetimes on an injected clock, the API's refusals, and deferred tools left out of the prompt.
 */

type Params = Anthropic.MessageCreateParamsNonStreaming;
type Block = Anthropic.ContentBlockParam;

/** The documented approximation: a block's JSON (without `cache_control`) at 3.5 characters a token. */
const tokens = (...blocks: unknown[]) =>
  blocks.reduce<number>((sum, block) => {
    const { cache_control: _, ...rest } = block as Record<string, unknown>;
    return sum + Math.ceil(JSON.stringify(rest).length / 3.5);
  }, 0);
/** Some text of about `chars` characters. */
const long = (label: string, chars = 4_000) => `${label}: ${'lorem ipsum dolor '.repeat(Math.ceil(chars / 18))}`;
const text = (value: string, cache?: Anthropic.CacheControlEphemeral): Anthropic.TextBlockParam => ({
  type: 'text',
  text: value,
  ...(cache ? { cache_control: cache } : {}),
});
const mark = { type: 'ephemeral' } as const;
const hourMark = { type: 'ephemeral', ttl: '1h' } as const;
const MINUTE = 60_000;

let fake: FakeModel;
let client: Anthropic;
let clock = 0;

beforeAll(async () => {
  fake = await startFakeModel({ promptCache: true, now: () => clock });
  client = new Anthropic({ apiKey: 'k', baseURL: fake.url, maxRetries: 0 });
});
beforeEach(() => {
  fake.reset();
  clock = 1_000_000;
});
afterAll(async () => {
  await fake.stop();
});

const systemBlock = text(long('system'), mark);
const params = (messages: Anthropic.MessageParam[], extra: Partial<Params> = {}): Params => ({
  model: 'claude-test',
  max_tokens: 100,
  system: [systemBlock],
  messages,
  ...extra,
});
const usageOf = async (body: Params) => (await client.messages.create(body)).usage;

describe('fake model prompt cache', () => {
  it('writes the prefix on a first request, and reads all of it on the same request again', async () => {
    const body = params([{ role: 'user', content: 'hello' }]);
    const prefix = tokens(systemBlock);
    const question = tokens(text('hello'));
    expect(prefix).toBeGreaterThanOrEqual(1024);

    expect(await usageOf(body)).toMatchObject({
      input_tokens: question,
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: prefix, ephemeral_1h_input_tokens: 0 },
    });
    expect(fake.cacheEntries()).toBe(1);
    expect(await usageOf(body)).toMatchObject({ input_tokens: question, cache_creation_input_tokens: 0, cache_read_input_tokens: prefix });
    expect(fake.cacheEntries()).toBe(1);

    // Another model has a cache of its own; `clearCache` empties it.
    expect(await usageOf({ ...body, model: 'claude-other' })).toMatchObject({
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
    });
    expect(fake.cacheEntries()).toBe(2);
    fake.clearCache();
    expect(fake.cacheEntries()).toBe(0);
    expect(await usageOf(body)).toMatchObject({ cache_creation_input_tokens: prefix, cache_read_input_tokens: 0 });
  });

  it('keeps the reply output tokens and replaces its scripted input figures', async () => {
    fake.reply(textReply('hi', { input_tokens: 999, cache_read_input_tokens: 999, output_tokens: 7 }));
    const usage = await usageOf(params([{ role: 'user', content: 'hello' }]));
    expect(usage).toMatchObject({ output_tokens: 7, input_tokens: tokens(text('hello')), cache_read_input_tokens: 0 });
  });

  it('writes everything up to the last breakpoint, a short first breakpoint included in the next one', async () => {
    const tool = { name: 'search', description: 'find things', input_schema: { type: 'object' as const }, cache_control: mark };
    const body = params([{ role: 'user', content: 'hello' }], { tools: [tool] });
    expect(tokens(tool)).toBeLessThan(1024);
    expect(await usageOf(body)).toMatchObject({
      input_tokens: tokens(text('hello')),
      cache_creation_input_tokens: tokens(tool, systemBlock),
      cache_read_input_tokens: 0,
    });
    // The tool's prefix alone is too short to be an entry.
    expect(fake.cacheEntries()).toBe(1);
  });

  it('reads the old prefix by look-back when the breakpoint moves to an appended message, and writes only the new part', async () => {
    const first = text(long('document', 1_000), mark);
    const turns: Anthropic.MessageParam[] = [
      { role: 'user', content: 'question 1' },
      { role: 'assistant', content: [text('answer 1')] },
      { role: 'user', content: [first] },
    ];
    const before = tokens(systemBlock, text('question 1'), text('answer 1'), first);
    expect(await usageOf(params(turns))).toMatchObject({
      input_tokens: 0,
      cache_creation_input_tokens: before,
      cache_read_input_tokens: 0,
    });
    expect(fake.cacheEntries()).toBe(2);

    // The next turn: the mark leaves the old last message (its block is otherwise the same) for the new one.
    const next = text('question 3', mark);
    const trailing = text('and one more thing');
    const moved: Anthropic.MessageParam[] = [
      ...turns.slice(0, 2),
      { role: 'user', content: [text(first.text)] },
      { role: 'assistant', content: [text('answer 2')] },
      { role: 'user', content: [next, trailing] },
    ];
    expect(await usageOf(params(moved))).toMatchObject({
      input_tokens: tokens(trailing),
      cache_read_input_tokens: before,
      cache_creation_input_tokens: tokens(text('answer 2'), next),
    });
    expect(fake.cacheEntries()).toBe(3);
  });

  it('looks back 20 blocks before a breakpoint, and no further', async () => {
    const first = text(long('document', 1_000), mark);
    const turns: Anthropic.MessageParam[] = [{ role: 'user', content: [first] }];
    await usageOf(params(turns));
    const parts = (count: number) => Array.from({ length: count }, (_, index) => text(`part ${index}`));
    const grown = (count: number): Anthropic.MessageParam[] => [
      { role: 'user', content: [text(first.text)] },
      { role: 'assistant', content: parts(count) },
      { role: 'user', content: [text('next', mark)] },
    ];
    // 19 blocks between: the old breakpoint is the 20th block before the new one.
    expect(await usageOf(params(grown(19)))).toMatchObject({ cache_read_input_tokens: tokens(systemBlock, first) });
    // 20 between: out of reach, only the system prompt (a breakpoint of its own) is read.
    expect(await usageOf(params(grown(20)))).toMatchObject({
      cache_read_input_tokens: tokens(systemBlock),
      cache_creation_input_tokens: tokens(first, ...parts(20), text('next')),
    });
  });

  it('never caches a prefix under 1 024 tokens', async () => {
    const system = text('be brief', mark);
    const body = params([{ role: 'user', content: [text('a short question', mark)] }], { system: [system] });
    const all = tokens(system, text('a short question'));
    expect(all).toBeLessThan(1024);
    for (let round = 0; round < 2; round += 1) {
      expect(await usageOf(body)).toMatchObject({ input_tokens: all, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
    }
    expect(fake.cacheEntries()).toBe(0);
  });

  it('counts everything as input without a breakpoint', async () => {
    const system = text(long('system'));
    const body = params([{ role: 'user', content: 'hello' }], { system: [system] });
    await usageOf(body);
    expect(await usageOf(body)).toMatchObject({
      input_tokens: tokens(system, text('hello')),
      cache_creation_input_tokens: 0,
      cache_read_input_tokens: 0,
    });
  });

  it('keeps an entry 5 minutes from its last write or read', async () => {
    const body = params([{ role: 'user', content: 'hello' }]);
    const prefix = tokens(systemBlock);
    await usageOf(body);
    clock += 4 * MINUTE;
    expect(await usageOf(body)).toMatchObject({ cache_read_input_tokens: prefix });
    // 8 minutes after the write, 4 after the read that refreshed it.
    clock += 4 * MINUTE;
    expect(await usageOf(body)).toMatchObject({ cache_read_input_tokens: prefix });
    clock += 5 * MINUTE + 1;
    expect(fake.cacheEntries()).toBe(0);
    expect(await usageOf(body)).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: prefix });
  });

  it('keeps a 1-hour entry an hour', async () => {
    const system = text(long('system'), hourMark);
    const body = params([{ role: 'user', content: 'hello' }], { system: [system] });
    const prefix = tokens(system);
    expect(await usageOf(body)).toMatchObject({
      cache_creation_input_tokens: prefix,
      cache_creation: { ephemeral_5m_input_tokens: 0, ephemeral_1h_input_tokens: prefix },
    });
    clock += 59 * MINUTE;
    expect(await usageOf(body)).toMatchObject({ cache_read_input_tokens: prefix });
    clock += 59 * MINUTE;
    expect(await usageOf(body)).toMatchObject({ cache_read_input_tokens: prefix });
    clock += 60 * MINUTE + 1;
    expect(await usageOf(body)).toMatchObject({ cache_read_input_tokens: 0, cache_creation_input_tokens: prefix });
  });

  it('writes each part at the TTL of the breakpoint that ends it', async () => {
    const system = text(long('system'), hourMark);
    const message = text(long('message', 1_000), mark);
    expect(await usageOf(params([{ role: 'user', content: [message] }], { system: [system] }))).toMatchObject({
      cache_creation_input_tokens: tokens(system, message),
      cache_creation: { ephemeral_1h_input_tokens: tokens(system), ephemeral_5m_input_tokens: tokens(message) },
    });
    // After 5 minutes only the hour-long entry is left.
    clock += 5 * MINUTE + 1;
    expect(await usageOf(params([{ role: 'user', content: [message] }], { system: [system] }))).toMatchObject({
      cache_read_input_tokens: tokens(system),
      cache_creation_input_tokens: tokens(message),
    });
  });

  it('refuses more than 4 breakpoints, and a 1-hour one after a 5-minute one, like the API', async () => {
    const marked = Array.from({ length: 4 }, (_, index) => text(`block ${index}`, mark));
    const refused = await client.messages.create(params([{ role: 'user', content: marked }])).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(Anthropic.BadRequestError);
    expect((refused as InstanceType<typeof Anthropic.BadRequestError>).error).toMatchObject({
      type: 'error',
      error: { type: 'invalid_request_error', message: 'A maximum of 4 blocks with cache_control may be provided. Found 5.' },
    });

    const late = await client.messages
      .create(params([{ role: 'user', content: [text('later', hourMark)] }]))
      .catch((error: unknown) => error);
    expect(late).toBeInstanceOf(Anthropic.BadRequestError);
    expect(String((late as Error).message)).toMatch(/ttl='1h'.*must not come after.*ttl='5m'/);
    expect(fake.cacheEntries()).toBe(0);
  });

  it('neither reads nor writes the cache on an error reply', async () => {
    fake.reply(errorReply(500, 'boom'));
    await expect(client.messages.create(params([{ role: 'user', content: 'hello' }]))).rejects.toBeInstanceOf(
      Anthropic.InternalServerError,
    );
    expect(fake.cacheEntries()).toBe(0);
  });

  it('leaves deferred tools out of the prompt until a tool result references them, then puts them after the others', async () => {
    const search: Anthropic.Tool = { name: 'search_tools', description: 'find tools', input_schema: { type: 'object' } };
    const refund: Anthropic.Tool = {
      name: 'refund_order',
      description: long('refund an order', 2_000),
      input_schema: { type: 'object' },
      defer_loading: true,
    };
    const question = { role: 'user' as const, content: 'refund order 12' };
    const unloaded = await usageOf(params([question], { tools: [refund, search] }));
    expect(unloaded).toMatchObject({
      cache_creation_input_tokens: tokens(search, systemBlock),
      input_tokens: tokens(text(question.content)),
      cache_read_input_tokens: 0,
    });

    const call: Block = { type: 'tool_use', id: 'toolu_1', name: 'search_tools', input: { query: 'refund' } };
    const result: Block = { type: 'tool_result', tool_use_id: 'toolu_1', content: [{ type: 'tool_reference', tool_name: 'refund_order' }] };
    const loaded = await usageOf(
      params([question, { role: 'assistant', content: [call] }, { role: 'user', content: [result] }], { tools: [refund, search] }),
    );
    // The loaded definition comes before the system prompt: a new prefix, written whole.
    expect(loaded).toMatchObject({
      cache_creation_input_tokens: tokens(search, refund, systemBlock),
      cache_read_input_tokens: 0,
      input_tokens: tokens(text(question.content), call, result),
    });
  });

  it('reports the same usage streamed (message_start, message_delta) as in JSON', async () => {
    const body = params([{ role: 'user', content: 'hello' }]);
    const prefix = tokens(systemBlock);
    const question = tokens(text('hello'));

    const streamed = async () => {
      fake.reply(textReply('streamed answer', { output_tokens: 7 }));
      const events: Anthropic.MessageStreamEvent[] = [];
      const stream = client.messages.stream(body);
      stream.on('streamEvent', (event) => events.push(event));
      const message = await stream.finalMessage();
      return { message, events };
    };
    const writing = await streamed();
    const start = writing.events.find((event) => event.type === 'message_start');
    const delta = writing.events.find((event) => event.type === 'message_delta');
    expect(start?.message.usage).toMatchObject({
      input_tokens: question,
      cache_creation_input_tokens: prefix,
      cache_read_input_tokens: 0,
      cache_creation: { ephemeral_5m_input_tokens: prefix, ephemeral_1h_input_tokens: 0 },
    });
    expect(delta?.usage).toMatchObject({ output_tokens: 7 });
    expect(writing.message.usage).toMatchObject({ input_tokens: question, cache_creation_input_tokens: prefix, output_tokens: 7 });

    const reading = await streamed();
    fake.reply(textReply('json answer', { output_tokens: 7 }));
    const json = await usageOf(body);
    expect(json).toMatchObject({
      input_tokens: question,
      cache_read_input_tokens: prefix,
      cache_creation_input_tokens: 0,
      output_tokens: 7,
    });
    expect(reading.message.usage).toEqual(json);
  });
});

describe('fake model without promptCache', () => {
  it('answers the scripted usage and lets any cache_control through', async () => {
    const plain = await startFakeModel();
    try {
      const plainClient = new Anthropic({ apiKey: 'k', baseURL: plain.url, maxRetries: 0 });
      const marked = Array.from({ length: 5 }, (_, index) => text(`block ${index}`, mark));
      const usage = (await plainClient.messages.create(params([{ role: 'user', content: marked }]))).usage;
      expect(usage).toEqual({ input_tokens: 100, output_tokens: 20, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 });
      expect(plain.cacheEntries()).toBe(0);
    } finally {
      await plain.stop();
    }
  });
});
