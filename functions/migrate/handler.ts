import type { CloudFormationCustomResourceEvent } from 'aws-lambda';
import { MIGRATIONS } from '../../migrations/index.js';
import { systemClock } from '../../shared/platform/clock.js';
import { parseConfig } from '../../shared/platform/config.js';
import { createDynamoClient } from '../../shared/platform/dynamo.js';
import { errorMessage } from '../../shared/platform/errors.js';
import { createLogger } from '../../shared/platform/logger.js';
import { runMigrations } from '../../shared/platform/migrations.js';
import { EnvelopeSecrets } from '../../shared/platform/secrets.js';
import { KmsKeyWrapper } from '../../shared/platform/secrets-kms.js';
import { Table } from '../../shared/platform/table.js';

/*
 * The deploy's migration: a CloudFormation custom resource (lib/service-stack.ts) that the stack
 * creates or updates whenever the schema version this code reads changes, after the table and
 * before the functions, queues and chat bridge that read it. It brings the stored data to that
 * version (migrations/, run by shared/platform/migrations.ts) and answers CloudFormation on the request's pre-signed URL:
 * a failure fails the deploy. Deleting the resource changes nothing. It needs the table, and the
 * stack's KMS key for the migrations that seal or open stored secrets (the service's own envelope
 * encryption, shared/platform/secrets.ts).
 */
const config = parseConfig(process.env, 'aws');
const logger = createLogger(config);
const table = new Table(createDynamoClient(config, config.dynamoEndpoint), config.tableName, systemClock);
// Without the key a migration that must seal fails and says so (not this module at its load,
// which would leave CloudFormation without an answer).
const secrets = config.secretsKmsKeyId ? new EnvelopeSecrets(new KmsKeyWrapper(config.secretsKmsKeyId, config.awsRegion)) : undefined;

/** Answers CloudFormation (the cfn-response protocol: a PUT of JSON with no content type to the pre-signed S3 URL). */
async function answer(event: CloudFormationCustomResourceEvent, status: 'SUCCESS' | 'FAILED', reason: string, data: object) {
  const body = JSON.stringify({
    Status: status,
    Reason: reason.slice(0, 3000),
    PhysicalResourceId: 'PhysicalResourceId' in event ? event.PhysicalResourceId : `migration-${event.LogicalResourceId}`,
    StackId: event.StackId,
    RequestId: event.RequestId,
    LogicalResourceId: event.LogicalResourceId,
    Data: data,
  });
  const response = await fetch(event.ResponseURL, { method: 'PUT', headers: { 'content-type': '' }, body });
  if (!response.ok) throw new Error(`CloudFormation's response URL answered ${response.status}`);
}

export async function handler(event: CloudFormationCustomResourceEvent): Promise<void> {
  if (event.RequestType === 'Delete') return answer(event, 'SUCCESS', 'nothing to undo', {});
  try {
    const report = await runMigrations(table, MIGRATIONS, { clock: systemClock, logger, secrets });
    logger.info('table schema checked', { ...report });
    await answer(event, 'SUCCESS', `schema ${report.from} → ${report.to}: moved ${report.moved} items`, {
      ...report,
      ran: report.ran.join('; '),
    });
  } catch (error) {
    logger.error('migration failed', { error: errorMessage(error) });
    await answer(event, 'FAILED', `migration failed: ${errorMessage(error)} (it carries on where it stopped when run again)`, {});
  }
}
