import { App } from 'aws-cdk-lib';
import { ServiceStack } from '../lib/service-stack.js';

// The CDK app: the only place that reads the deployment environment.
const app = new App();
new ServiceStack(app, 'WorkspaceAgentProxy', {
  env: { account: process.env.CDK_DEFAULT_ACCOUNT, region: process.env.CDK_DEFAULT_REGION },
});
