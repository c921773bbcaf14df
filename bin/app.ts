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
  tracing: {
    otlpEndpoint: process.env.OTEL_EXPORTER_OTLP_ENDPOINT || undefined,
    captureContent: booleanSetting('OTEL_CAPTURE_CONTENT', process.env.OTEL_CAPTURE_CONTENT) ?? false,
  },
});
