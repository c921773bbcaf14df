import { handle } from 'hono/aws-lambda';
import { createDeps, type Deps } from '../../shared/deps.js';
import { createApp } from '../../shared/http/app.js';
import { createAwsJobs } from '../../shared/jobs/aws.js';
import { systemClock } from '../../shared/platform/clock.js';
import { parseConfig } from '../../shared/platform/config.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { createLogger } from '../../shared/platform/logger.js';
import { Table } from '../../shared/platform/table.js';

// Built once per container; SDK clients live outside the handler.
const config = parseConfig(process.env, 'aws');
if (!config.sessionSecret) throw new Error('SESSION_SECRET is required on AWS');
let deps: Deps | undefined;
const { jobs, scheduler } = createAwsJobs(config, () => deps as Deps);
deps = createDeps({
  config,
  table: new Table(createDynamoClient(config), config.tableName, systemClock),
  clock: systemClock,
  logger: createLogger(config),
  sessionSecret: config.sessionSecret,
  jobs,
  scheduler,
});

export const handler = handle(createApp(deps));
