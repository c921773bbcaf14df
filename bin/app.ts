import { App } from 'aws-cdk-lib';
import { ServiceStack } from '../lib/service-stack.js';

// The CDK app: the only place that reads the deployment environment.
const app = new App();
const corsOrigins = (process.env.CORS_ALLOWED_ORIGINS ?? '')
  .split(',')
  .map((origin) => origin.trim())
  .filter(Boolean);
new ServiceStack(app, 'WorkspaceAgentProxy', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
  corsOrigins,
  jobMaxAttempts: process.env.JOB_MAX_ATTEMPTS ? Number(process.env.JOB_MAX_ATTEMPTS) : undefined,
});
