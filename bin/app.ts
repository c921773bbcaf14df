import { App } from 'aws-cdk-lib';
import { ServiceStack } from '../lib/service-stack.js';
import { booleanSetting } from '../shared/platform/config.js';
import { ensureConsoleBuilt } from '../web/build.js';

// The CDK app: the only place that reads the deployment environment.
const app = new App();

function signupModeOf(value: string | undefined): 'open' | 'invite' | 'closed' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'open' || value === 'invite' || value === 'closed') return value;
  throw new Error(`SIGNUP_MODE must be open, invite or closed, not "${value}"`);
}
/** A whole number of at least 0 from the environment, or undefined (the stack's default) when unset. */
function countSetting(name: string): number | undefined {
  const value = process.env[name];
  if (value === undefined || value === '') return undefined;
  if (!/^\d+$/.test(value)) throw new Error(`${name} must be a whole number of 0 or more, not "${value}"`);
  return Number(value);
}
/** The settings that are set: an unset one leaves the stack's default. */
function definedOnly(settings: Record<string, number | undefined>): Record<string, number> {
  return Object.fromEntries(Object.entries(settings).filter((entry): entry is [string, number] => entry[1] !== undefined));
}
function agentRuntimeOf(value: string | undefined): 'lambda' | 'fargate' | undefined {
  if (value === undefined || value === '') return undefined;
  if (value === 'lambda' || value === 'fargate') return value;
  throw new Error(`AGENT_RUNTIME must be lambda or fargate, not "${value}"`);
}
const corsOrigins = (process.env.CORS_ALLOWED_ORIGINS ?? '')
  .split(',')
  .map((origin) => origin.trim())
  .filter(Boolean);
// The console's files are an asset of the stack: built (when its sources changed) before synth.
await ensureConsoleBuilt((line) => console.error(line));
new ServiceStack(app, 'WorkspaceAgentProxy', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  corsOrigins,
  jobMaxAttempts: process.env.JOB_MAX_ATTEMPTS ? Number(process.env.JOB_MAX_ATTEMPTS) : undefined,
  access: {
    signupMode: signupModeOf(process.env.SIGNUP_MODE),
    allowServiceModelKey: booleanSetting('ALLOW_SERVICE_MODEL_KEY', process.env.ALLOW_SERVICE_MODEL_KEY),
    metricsByWorkspace: booleanSetting('METRICS_BY_WORKSPACE', process.env.METRICS_BY_WORKSPACE),
  },
  // Unset: DEFAULT_LIMITS of lib/service-stack.ts (docs/deploy.md, "Limits").
  limits: definedOnly({
    requestsPerSecond: countSetting('API_RATE_LIMIT'),
    burst: countSetting('API_BURST_LIMIT'),
    apiReservedConcurrency: countSetting('API_RESERVED_CONCURRENCY'),
    jobsReservedConcurrency: countSetting('JOBS_RESERVED_CONCURRENCY'),
  }),
  // Unset: the agent and stream functions; fargate: the agent service (docs/deploy.md, "Where the agent loop runs").
  agentRuntime: agentRuntimeOf(process.env.AGENT_RUNTIME),
  agentService: definedOnly({
    minTasks: countSetting('AGENT_SERVICE_MIN_TASKS'),
    maxTasks: countSetting('AGENT_SERVICE_MAX_TASKS'),
    queriesPerTask: countSetting('AGENT_SERVICE_QUERIES_PER_TASK'),
  }),
  // Set: hybrid knowledge search with this Bedrock embedding model ("default": Titan Text Embeddings v2).
  embeddings: process.env.EMBEDDINGS_MODEL
    ? {
        ...(process.env.EMBEDDINGS_MODEL === 'default' ? {} : { model: process.env.EMBEDDINGS_MODEL }),
        ...definedOnly({ dimensions: countSetting('EMBEDDINGS_DIMENSIONS') }),
      }
    : undefined,
  tracing: {
    otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    captureContent: booleanSetting('OTEL_CAPTURE_CONTENT', process.env.OTEL_CAPTURE_CONTENT) ?? false,
  },
});
