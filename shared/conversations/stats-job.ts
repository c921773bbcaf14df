import { currentMessages } from './messages.js';
import type { Condition } from 'dynamodb-toolbox/entity/actions/parseCondition';
import { $add, UpdateItemCommand } from 'dynamodb-toolbox/entity/actions/update';
import { z } from 'zod';
import { costOf, type ContentBlock, modelTier, type ModelTier } from '../models/index.js';
import { modelsOf } from '../deps.js';
import type { JobHandler } from '../jobs/index.js';
import { readModelSettings } from '../org/index.js';
import { newId } from '../platform/ids.js';
import { type Item, unlessConditionFailed } from '../platform/table.js';
import { updateOf } from '../platform/updates.js';
import { gapKey } from '../knowledge/index.js';
import { counterNames, recordUsage } from '../workspaces/index.js';
import { issueLines } from '../platform/validation.js';
import { CONVERSATION_SORT_KEY, conversationEntity, conversationKey, conversationWithMessages, outOf } from './entities.js';

/** The statistics of a closed conversation, as the model must give them. */
const ConversationStatsOutput = z.object({
  sentiment_score: z.number().min(-1).max(1),
  resolution_status: z.enum(['resolved', 'unresolved']),
  category: z
    .string()
    .trim()
    .toLowerCase()
    .transform((label) =>
      label
        .replace(/\s+/g, '-')
        .replace(/[^a-z0-9-]/g, '')
        .slice(0, 40),
    )
    .pipe(z.string().min(1, 'category must be a short label')),
  summary: z.string().trim().min(1).max(2000),
});

const STATS_TOOL = {
  name: 'record_conversation_stats',
  description: 'Record the statistics of a support conversation that has ended.',
  inputSchema: {
    type: 'object',
    properties: {
      sentiment_score: { type: 'number', minimum: -1, maximum: 1, description: "The user's sentiment, from -1 (negative) to 1 (positive)" },
      resolution_status: { type: 'string', enum: ['resolved', 'unresolved'], description: "Whether the user's need was met" },
      category: { type: 'string', description: 'One short label: query, support, issue, or another one-word label' },
      summary: { type: 'string', description: 'Two or three sentences on what was asked and how it ended' },
    },
    required: ['sentiment_score', 'resolution_status', 'category', 'summary'],
  },
};

const STATS_PROMPT =
  'You review conversations between users and an assistant after they have ended. ' +
  'Call record_conversation_stats once with your assessment of the conversation you are given.';

/** Statistics are made with the cheapest tier: a short classification, not an answer. */
const STATS_TIER = 'fast';
const MAX_TRANSCRIPT_CHARS = 60_000;

const StatsJobSchema = z.object({ workspaceId: z.string().min(1), conversationId: z.string().min(1) });
export type StatsJob = z.infer<typeof StatsJobSchema>;

function sentimentBucket(score: number): 'positive' | 'neutral' | 'negative' {
  if (score > 0.25) return 'positive';
  if (score < -0.25) return 'negative';
  return 'neutral';
}

type ConversationStats = z.infer<typeof ConversationStatsOutput>;

/** The stats' writes are made once: while they are not complete. */
const notComplete: Condition<typeof conversationEntity> = {
  and: [
    { attr: 'pk', exists: true },
    { attr: 'stats_status', ne: 'complete' },
  ],
};

/** The stats' write, with their cost, out of `pending`; only if they are not complete yet (a duplicate delivery writes nothing). */
function statsUpdate(orgId: string, data: StatsJob, stats: ConversationStats, cost: number, at: string) {
  const command = conversationEntity
    .build(UpdateItemCommand)
    .item({
      ...conversationKey(orgId, data.workspaceId, data.conversationId),
      sentiment_score: stats.sentiment_score,
      resolution_status: stats.resolution_status,
      category: stats.category,
      summary: stats.summary,
      stats_status: 'complete',
      stats_at: at,
      total_cost_usd: $add(cost),
      ...outOf('pending'),
    })
    .options({ condition: notComplete });
  return updateOf(command);
}

/** Stats that failed for good: out of `pending` too (a stats job that failed for good is retried from the failed list). */
function statsFailedUpdate(orgId: string, data: StatsJob) {
  const command = conversationEntity
    .build(UpdateItemCommand)
    .item({ ...conversationKey(orgId, data.workspaceId, data.conversationId), stats_status: 'failed', ...outOf('pending') })
    .options({ condition: notComplete });
  return updateOf(command);
}

function transcriptOf(messages: Item[]): string {
  const lines = messages.map((message) => `${message.role === 'assistant' ? 'Assistant' : 'User'}: ${String(message.content ?? '')}`);
  let transcript = lines.join('\n\n');
  // Keep the end of very long conversations: how they ended matters most.
  if (transcript.length > MAX_TRANSCRIPT_CHARS) transcript = `[…]\n${transcript.slice(-MAX_TRANSCRIPT_CHARS)}`;
  return transcript || '(no messages)';
}

/**
 * The `conversation-stats` queue's handler: one model call with a forced tool whose input is the
 * statistics, validated with zod, written to the conversation with its cost added to
 * `total_cost_usd`, and counted in the workspace's aggregates. A model failure or invalid output
 * throws, so the job is retried and can fail for good (then `stats_status` is `failed`). Writing
 * is conditional on the stats not being complete yet, so a duplicate delivery has no effect; it
 * answers false then (the stats were written before it), so its queue counts the job completed
 * once (its queue is `claimed-on-delivery`, jobs/ledger-types.ts). The write also takes the conversation's stats
 * entry out of the due index (conversations/lifecycle.ts `STATS_BACKSTOP_MS`).
 */
export const conversationStatsHandler: JobHandler<StatsJob> = {
  schema: StatsJobSchema,
  async run(deps, data, job) {
    const [items, modelSettings] = await Promise.all([
      deps.table.queryAll(conversationWithMessages(job.org_id, data.workspaceId, data.conversationId)),
      readModelSettings(deps, job.org_id),
    ]);
    const conversation = items.find((item) => item.sk === CONVERSATION_SORT_KEY);
    const messages = currentMessages(items);
    if (!conversation || conversation.stats_status === 'complete') return false;
    const client = modelsOf(deps).clientFor(modelSettings);
    const tier = modelTier(STATS_TIER) as ModelTier;
    const response = await client.createMessage({
      model: client.modelFor(tier),
      system: STATS_PROMPT,
      tools: [STATS_TOOL],
      toolChoice: STATS_TOOL.name,
      messages: [{ role: 'user', content: [{ type: 'text', text: transcriptOf(messages) }] }],
      maxTokens: 1024,
    });
    const call = response.content.find(
      (block): block is Extract<ContentBlock, { type: 'tool_use' }> => block.type === 'tool_use' && block.name === STATS_TOOL.name,
    );
    if (!call) throw new Error('the model did not record the conversation stats');
    const parsed = ConversationStatsOutput.safeParse(call.input);
    if (!parsed.success) {
      throw new Error(`the model returned invalid stats: ${issueLines(parsed.error).join('; ')}`);
    }
    const stats = parsed.data;
    const cost = costOf(response.usage, tier);
    const write = statsUpdate(job.org_id, data, stats, cost, deps.clock.now().toISOString());
    const recorded = await unlessConditionFailed(deps.table.update(write.key, write.input), null);
    if (recorded === null) return false; // another delivery finished first
    // An unresolved conversation is a knowledge gap: its first question is what the knowledge lacked.
    const unresolved = stats.resolution_status === 'unresolved';
    if (unresolved) {
      const firstQuestion = messages.find((item) => item.role === 'user');
      const now = deps.clock.now();
      const id = newId('gap', now);
      await deps.table.put({
        ...gapKey(job.org_id, data.workspaceId, now.toISOString(), id),
        id,
        question: String(firstQuestion?.content ?? stats.summary).slice(0, 1000),
        conversation_id: data.conversationId,
        created_at: now.toISOString(),
      });
    }
    // The statistics' counters ride on the usage's own write of the workspace counters: one UpdateItem.
    await recordUsage(deps, job.org_id, data.workspaceId, { cost_usd: cost }, deps.clock.now(), {
      [counterNames.dimension('category', stats.category)]: 1,
      [counterNames.dimension('resolution', stats.resolution_status)]: 1,
      [counterNames.dimension('sentiment', sentimentBucket(stats.sentiment_score))]: 1,
      sentiment_sum: stats.sentiment_score,
      sentiment_count: 1,
      gaps: unresolved ? 1 : 0,
    });
  },
  async onFailed(deps, data, job) {
    const write = statsFailedUpdate(job.org_id, data);
    await unlessConditionFailed(deps.table.update(write.key, write.input), undefined);
  },
};
