import { z } from 'zod';
import { issueLines } from './validation.js';
import { embeddingSettings, embeddingsOf, type EmbeddingsConfig } from './config-embeddings.js';
import { BUNDLED_STDIO_SERVERS, type StdioServerEntry, stdioServers } from './config-stdio.js';

export { BUNDLED_STDIO_SERVERS, type StdioServerEntry } from './config-stdio.js';

/** Where the process runs: the defaults of a few variables differ (docs/api-decisions.md, Configuration). */
export type Runtime = 'local' | 'aws';

const booleanFromString = z
  .enum(['true', 'false', '1', '0', 'yes', 'no'])
  .transform((value) => value === 'true' || value === '1' || value === 'yes');

/**
 * A yes/no setting as the service reads it (`true`/`1`/`yes`, `false`/`0`/`no`), for the CDK app
 * to pass on: undefined when unset or empty, and an error naming the variable otherwise.
 */
export function booleanSetting(name: string, value: string | undefined): boolean | undefined {
  if (value === undefined || value === '') return undefined;
  const parsed = booleanFromString.safeParse(value);
  if (!parsed.success) throw new Error(`${name} must be true, false, 1, 0, yes or no, not "${value}"`);
  return parsed.data;
}

const optionalUrl = z.string().url().optional();

/** Bounds on a tool server's list (docs/connections.md): tools kept per connection and per workspace, a description's and an input schema's size. */
export type ToolLimits = { perConnection: number; perWorkspace: number; descriptionBytes: number; schemaBytes: number };
export const DEFAULT_TOOL_LIMITS: ToolLimits = { perConnection: 500, perWorkspace: 1_000, descriptionBytes: 8_192, schemaBytes: 32_768 };
const toolLimitSettings = {
  MCP_MAX_TOOLS_PER_CONNECTION: z.coerce.number().int().min(1).max(10_000).default(DEFAULT_TOOL_LIMITS.perConnection),
  MCP_MAX_TOOLS_PER_WORKSPACE: z.coerce.number().int().min(1).max(20_000).default(DEFAULT_TOOL_LIMITS.perWorkspace),
  MCP_MAX_TOOL_DESCRIPTION_BYTES: z.coerce.number().int().min(256).max(65_536).default(DEFAULT_TOOL_LIMITS.descriptionBytes),
  MCP_MAX_TOOL_SCHEMA_BYTES: z.coerce.number().int().min(1024).max(262_144).default(DEFAULT_TOOL_LIMITS.schemaBytes),
};

/** Where the jobs go on AWS (the stack sets them): a queue per kind, and the scheduler of timed moves. */
const queueSettings = {
  LIFECYCLE_QUEUE_URL: optionalUrl,
  COLD_MESSAGES_QUEUE_URL: optionalUrl,
  STATS_QUEUE_URL: optionalUrl,
  EVALS_QUEUE_URL: optionalUrl,
  KNOWLEDGE_QUEUE_URL: optionalUrl,
  ROUTINES_QUEUE_URL: optionalUrl,
  /** The bucket of knowledge documents on AWS (the stack sets it). */
  KNOWLEDGE_BUCKET: z.string().min(1).optional(),
  LIFECYCLE_QUEUE_ARN: z.string().min(1).optional(),
  SCHEDULER_GROUP_NAME: z.string().min(1).optional(),
  SCHEDULER_ROLE_ARN: z.string().min(1).optional(),
};

function configSchema(runtime: Runtime) {
  const local = runtime === 'local';
  return z.object({
    PORT: z.coerce.number().int().min(0).max(65535).default(3000),
    HOST: z.string().min(1).default('127.0.0.1'),
    DATA_DIR: z.string().min(1).default('./.data'),
    SESSION_SECRET: z.string().min(32, 'SESSION_SECRET must be at least 32 characters').optional(),
    SESSION_SECRET_ARN: z.string().min(1).optional(),
    ORIGIN_VERIFY_SECRET_ARN: z.string().min(1).optional(),
    SECRETS_KMS_KEY_ID: z.string().min(1).optional(),
    PUBLIC_BASE_URL: z.string().url().optional(),
    DYNAMODB_ENDPOINT: optionalUrl,
    ANTHROPIC_API_KEY: z.string().min(1).optional(),
    ANTHROPIC_BASE_URL: optionalUrl,
    SLACK_API_URL: optionalUrl,
    MCP_STDIO_SERVERS: stdioServers.default(local ? BUNDLED_STDIO_SERVERS : {}),
    // Off by default even locally: `npm start` (bin/local.ts) turns it on for a laptop.
    MCP_ALLOW_PRIVATE_URLS: booleanFromString.default(false),
    SIGNUP_MODE: z.enum(['open', 'invite', 'closed']).default(local ? 'open' : 'invite'),
    ALLOW_SERVICE_MODEL_KEY: booleanFromString.default(local),
    MCP_TIMEOUT_MS: z.coerce.number().int().min(100).max(600_000).default(30_000),
    KNOWLEDGE_SHARD_PASSAGES: z.coerce.number().int().min(100).max(100_000).default(2_000),
    QUERY_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(1_000_000).default(300),
    MCP_GATEWAY_APPROVAL_WAIT_SECONDS: z.coerce.number().min(0).max(900).default(60),
    ORG_REQUEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(6_000),
    KEY_REQUEST_RATE_LIMIT_PER_MINUTE: z.coerce.number().int().min(1).max(10_000_000).default(1_200),
    MAX_QUERIES_IN_FLIGHT: z.coerce.number().int().min(1).max(100_000).default(200),
    MAX_QUERIES_IN_FLIGHT_PER_ORG: z.coerce.number().int().min(1).max(100_000).default(20),
    MCP_MAX_RESPONSE_BYTES: z.coerce
      .number()
      .int()
      .min(1024)
      .max(1024 * 1024 * 1024)
      .default(8 * 1024 * 1024),
    MCP_MAX_CONNECTIONS_PER_ORIGIN: z.coerce.number().int().min(1).max(10_000).default(32),
    ...toolLimitSettings,
    MODEL_CLIENT_CACHE_SIZE: z.coerce.number().int().min(1).max(100_000).default(500),
    MODEL_TIMEOUT_MS: z.coerce.number().int().min(1000).max(900_000).default(120_000),
    MODEL_MAX_RETRIES: z.coerce.number().int().min(0).max(10).default(2),
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalUrl,
    OTEL_CAPTURE_CONTENT: booleanFromString.default(false),
    METRICS_BY_WORKSPACE: booleanFromString.optional(),
    JOB_MAX_ATTEMPTS: z.coerce.number().int().min(1).max(100).default(3),
    JOB_RETRY_BASE_MS: z.coerce.number().int().min(0).default(1000),
    CHAT_BRIDGE_POLL_MS: z.coerce
      .number()
      .int()
      .min(100)
      .max(600_000)
      .default(local ? 2_000 : 30_000),
    SWEEP_INTERVAL_MS: z.coerce.number().int().min(100).max(3_600_000).default(60_000),
    // Shards of the conversations' due index: on DynamoDB, so that no partition takes every
    // tenant's moves; one store locally, where each shard is one more Query per wake-up.
    DUE_INDEX_SHARDS: z.coerce
      .number()
      .int()
      .min(1)
      .max(1024)
      .default(local ? 4 : 128),
    // The bearer token of GET /metrics on the local runtime; without it the route answers 404.
    METRICS_TOKEN: z.string().min(16, 'METRICS_TOKEN must be at least 16 characters').optional(),
    POWERTOOLS_METRICS_NAMESPACE: z.string().min(1).max(255).default('WorkspaceAgentProxy'),
    ...queueSettings,
    ...embeddingSettings,
    TABLE_NAME: local ? z.string().min(1).default('workspace-agent-proxy') : z.string().min(1),
    AWS_REGION: z
      .string()
      .min(1)
      .default(local ? 'local' : 'us-east-1'),
    LOG_LEVEL: z
      .enum(['DEBUG', 'INFO', 'WARN', 'ERROR', 'SILENT', 'debug', 'info', 'warn', 'error', 'silent'])
      .transform((level) => level.toUpperCase() as 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT')
      .default('INFO'),
    NODE_ENV: z.enum(['development', 'production', 'test']).default(local ? 'development' : 'production'),
  });
}

type ConfigEnv = z.output<ReturnType<typeof configSchema>>;

/** The service's configuration, parsed once from the environment. */
export interface Config {
  runtime: Runtime;
  port: number;
  host: string;
  /** Local data directory, or `null` when `DATA_DIR=memory` (nothing is kept). */
  dataDir: string | null;
  sessionSecret: string | undefined;
  /** AWS: the Secrets Manager secret holding the session secret (read once per container). */
  sessionSecretArn: string | undefined;
  /** AWS: the secret CloudFront sends in `x-origin-verify`, proving a request came through it (viewer-address.ts). */
  originSecretArn: string | undefined;
  /** AWS: the KMS key that wraps the data keys of secrets at rest (set by the CDK stack). */
  secretsKmsKeyId: string | undefined;
  /** The service's public origin, for OAuth redirect URIs (else the origin each request came to). */
  publicBaseUrl: string | undefined;
  /** A DynamoDB endpoint other than AWS's (DynamoDB Local, dynalite in tests). */
  dynamoEndpoint: string | undefined;
  anthropicApiKey: string | undefined;
  anthropicBaseUrl: string | undefined;
  slackApiUrl: string | undefined;
  /** The stdio MCP servers the operator allows, by name (`MCP_STDIO_SERVERS`). */
  mcpStdioServers: Record<string, StdioServerEntry>;
  mcpAllowPrivateUrls: boolean;
  /** Who may sign up: anyone, only the first user of an empty deployment (`invite`), or nobody. */
  signupMode: 'open' | 'invite' | 'closed';
  /** Whether an organisation without its own `ai_api_key` may use the service's model key (and Bedrock account). */
  allowServiceModelKey: boolean;
  /** Timeout of MCP connects, tools/list and (by default) tool calls. */
  mcpTimeoutMs: number;
  /** A shard of a workspace's knowledge index grows to this many passages, then splits (docs/knowledge.md, "The index"). */
  knowledgeShardPassages: number;
  /** Queries an organisation may run per minute, all entry points together. */
  queryRateLimitPerMinute: number;
  /** How long a person's tool call through the MCP gateway waits for its approval before answering its id and link. */
  mcpGatewayApprovalWaitSeconds: number;
  /** Requests an organisation may make per minute on the authenticated routes, all processes together (`platform/request-rate.ts`). */
  orgRequestRateLimitPerMinute: number;
  /** Requests one consumer key may make per minute. */
  keyRequestRateLimitPerMinute: number;
  /** Queries this process runs at once, all organisations together (`MAX_QUERIES_IN_FLIGHT`); past it, 429. */
  maxQueriesInFlight: number;
  /** Queries one organisation runs at once in this process (`MAX_QUERIES_IN_FLIGHT_PER_ORG`); past it, 429. */
  maxQueriesInFlightPerOrg: number;
  /** The largest JSON-RPC answer or SSE event read from a tool server (`MCP_MAX_RESPONSE_BYTES`), counted while reading. */
  mcpMaxResponseBytes: number;
  /** Open connections to one tool-server origin, all queries together (`MCP_MAX_CONNECTIONS_PER_ORIGIN`). */
  mcpMaxConnectionsPerOrigin: number;
  /** Applied when a connection's tools are listed (`MCP_MAX_TOOLS_PER_*`, `MCP_MAX_TOOL_*_BYTES`). */
  mcpToolLimits: ToolLimits;
  /** Model clients kept for reuse, one per distinct API key, least recently used dropped first (`MODEL_CLIENT_CACHE_SIZE`). */
  modelClientCacheSize: number;
  modelTimeoutMs: number;
  /** Retries of a model call on 408/409/429/5xx (the SDK's backoff, honouring retry-after). */
  modelMaxRetries: number;
  /** Where traces go over OTLP/HTTP (`OTEL_EXPORTER_OTLP_ENDPOINT`); none: no tracing SDK is started. */
  otlpEndpoint?: string;
  /** Prompts, answers and tool arguments and results in spans (`OTEL_CAPTURE_CONTENT`): off by default. */
  otelCaptureContent: boolean;
  jobMaxAttempts: number;
  jobRetryBaseMs: number;
  /** How often the chat bridge reads which organisations have chat tokens. */
  chatBridgePollMs: number;
  /** How often the local runtime sweeps for overdue conversation moves. */
  sweepIntervalMs: number;
  /** Shards of the conversations' due index (`DUE_INDEX_SHARDS`): fixed for a table's life (docs/capacity.md). */
  dueIndexShards: number;
  /** The bearer token a scraper sends to the local runtime's `GET /metrics`; none: the route answers 404. */
  metricsToken: string | undefined;
  /** The CloudWatch namespace of the Lambda functions' metrics (`POWERTOOLS_METRICS_NAMESPACE`, set by the stack). */
  metricsNamespace: string;
  /**
   * Metrics keep the `workspace` label (`METRICS_BY_WORKSPACE`); false: totals only. Default true,
   * but false on AWS with open sign-up, where strangers' workspaces would be billed metrics.
   */
  metricsByWorkspace: boolean;
  /** AWS only: the SQS queues and the EventBridge Scheduler group, set by the CDK stack. */
  queues: {
    lifecycleUrl: string | undefined;
    coldMessagesUrl: string | undefined;
    statsUrl: string | undefined;
    evalsUrl: string | undefined;
    knowledgeUrl: string | undefined;
    routinesUrl: string | undefined;
    lifecycleArn: string | undefined;
    schedulerGroup: string | undefined;
    schedulerRoleArn: string | undefined;
  };
  tableName: string;
  /** The S3 bucket of knowledge documents on AWS; none locally (they are kept in `DATA_DIR/blobs`). */
  knowledgeBucket: string | undefined;
  /** The embedding provider of the knowledge search, if any (`EMBEDDINGS_*`). */
  embeddings: EmbeddingsConfig | undefined;
  /** The ARN of the S3 vector bucket of the knowledge's vectors on AWS; none locally (the index keeps them). */
  vectorBucketArn: string | undefined;
  awsRegion: string;
  logLevel: 'DEBUG' | 'INFO' | 'WARN' | 'ERROR' | 'SILENT';
  /** Cookies carry `Secure` in production (always on AWS). */
  production: boolean;
}

/** Raised when the environment does not describe a valid configuration. */
export class ConfigError extends Error {
  constructor(
    message: string,
    readonly issues: string[],
  ) {
    super(message);
    this.name = 'ConfigError';
  }
}

/**
 * Parses the configuration from `env` (pass `process.env` from the wiring, or a test's own map).
 * Nothing else in the code base reads the environment.
 */
export function parseConfig(env: Record<string, string | undefined>, runtime: Runtime): Config {
  // An empty variable means "not set", as shells and CDK often leave them.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== undefined && value !== ''));
  const parsed = configSchema(runtime).safeParse(present);
  if (!parsed.success) {
    const issues = issueLines(parsed.error);
    throw new ConfigError(`invalid configuration: ${issues.join('; ')}`, issues);
  }
  return toConfig(parsed.data, runtime);
}

function toConfig(env: ConfigEnv, runtime: Runtime): Config {
  return {
    runtime,
    port: env.PORT,
    host: env.HOST,
    dataDir: env.DATA_DIR === 'memory' ? null : env.DATA_DIR,
    sessionSecret: env.SESSION_SECRET,
    sessionSecretArn: env.SESSION_SECRET_ARN,
    originSecretArn: env.ORIGIN_VERIFY_SECRET_ARN,
    secretsKmsKeyId: env.SECRETS_KMS_KEY_ID,
    publicBaseUrl: env.PUBLIC_BASE_URL?.replace(/\/+$/, ''),
    dynamoEndpoint: env.DYNAMODB_ENDPOINT,
    anthropicApiKey: env.ANTHROPIC_API_KEY,
    anthropicBaseUrl: env.ANTHROPIC_BASE_URL,
    slackApiUrl: env.SLACK_API_URL,
    mcpStdioServers: env.MCP_STDIO_SERVERS,
    mcpAllowPrivateUrls: env.MCP_ALLOW_PRIVATE_URLS,
    signupMode: env.SIGNUP_MODE,
    allowServiceModelKey: env.ALLOW_SERVICE_MODEL_KEY,
    mcpTimeoutMs: env.MCP_TIMEOUT_MS,
    knowledgeShardPassages: env.KNOWLEDGE_SHARD_PASSAGES,
    queryRateLimitPerMinute: env.QUERY_RATE_LIMIT_PER_MINUTE,
    mcpGatewayApprovalWaitSeconds: env.MCP_GATEWAY_APPROVAL_WAIT_SECONDS,
    orgRequestRateLimitPerMinute: env.ORG_REQUEST_RATE_LIMIT_PER_MINUTE,
    keyRequestRateLimitPerMinute: env.KEY_REQUEST_RATE_LIMIT_PER_MINUTE,
    maxQueriesInFlight: env.MAX_QUERIES_IN_FLIGHT,
    maxQueriesInFlightPerOrg: env.MAX_QUERIES_IN_FLIGHT_PER_ORG,
    mcpMaxResponseBytes: env.MCP_MAX_RESPONSE_BYTES,
    mcpMaxConnectionsPerOrigin: env.MCP_MAX_CONNECTIONS_PER_ORIGIN,
    mcpToolLimits: {
      perConnection: env.MCP_MAX_TOOLS_PER_CONNECTION,
      perWorkspace: env.MCP_MAX_TOOLS_PER_WORKSPACE,
      descriptionBytes: env.MCP_MAX_TOOL_DESCRIPTION_BYTES,
      schemaBytes: env.MCP_MAX_TOOL_SCHEMA_BYTES,
    },
    modelClientCacheSize: env.MODEL_CLIENT_CACHE_SIZE,
    modelTimeoutMs: env.MODEL_TIMEOUT_MS,
    modelMaxRetries: env.MODEL_MAX_RETRIES,
    otlpEndpoint: env.OTEL_EXPORTER_OTLP_ENDPOINT,
    otelCaptureContent: env.OTEL_CAPTURE_CONTENT,
    jobMaxAttempts: env.JOB_MAX_ATTEMPTS,
    jobRetryBaseMs: env.JOB_RETRY_BASE_MS,
    chatBridgePollMs: env.CHAT_BRIDGE_POLL_MS,
    sweepIntervalMs: env.SWEEP_INTERVAL_MS,
    dueIndexShards: env.DUE_INDEX_SHARDS,
    metricsToken: env.METRICS_TOKEN,
    metricsNamespace: env.POWERTOOLS_METRICS_NAMESPACE,
    metricsByWorkspace: env.METRICS_BY_WORKSPACE ?? (runtime === 'local' || env.SIGNUP_MODE !== 'open'),
    queues: {
      lifecycleUrl: env.LIFECYCLE_QUEUE_URL,
      coldMessagesUrl: env.COLD_MESSAGES_QUEUE_URL,
      statsUrl: env.STATS_QUEUE_URL,
      evalsUrl: env.EVALS_QUEUE_URL,
      knowledgeUrl: env.KNOWLEDGE_QUEUE_URL,
      routinesUrl: env.ROUTINES_QUEUE_URL,
      lifecycleArn: env.LIFECYCLE_QUEUE_ARN,
      schedulerGroup: env.SCHEDULER_GROUP_NAME,
      schedulerRoleArn: env.SCHEDULER_ROLE_ARN,
    },
    tableName: env.TABLE_NAME,
    knowledgeBucket: env.KNOWLEDGE_BUCKET,
    embeddings: embeddingsOf(env),
    vectorBucketArn: env.VECTOR_BUCKET_ARN,
    awsRegion: env.AWS_REGION,
    logLevel: env.LOG_LEVEL,
    // API Gateway serves only HTTPS: on AWS the session cookie is always Secure.
    production: runtime === 'aws' || env.NODE_ENV === 'production',
  };
}
