import { CustomResource, Duration } from 'aws-cdk-lib';
import type { Construct, IConstruct } from 'constructs';
import { SCHEMA_VERSION } from '../migrations/index.js';
import type { Data } from './data.js';
import { serviceFunction } from './functions.js';

/**
 * The deploy's migration of stored data (functions/migrate/handler.ts): a function with the table
 * and the use of the secrets' key (migrations seal and open stored secrets: 009), and a custom
 * resource whose property is the schema version this code reads, so that CloudFormation runs it
 * when the version changes (and at the first deploy), after the table and before `readers` (the
 * functions, queues and bridge that read the table) are updated.
 */
export function migrateBefore(scope: Construct, data: Data, readers: IConstruct[]): CustomResource {
  const { table } = data;
  const migrate = serviceFunction(scope, 'MigrateFunction', {
    entry: 'functions/migrate/handler.ts',
    memorySize: 512,
    timeout: Duration.minutes(15),
    description: "Brings the table's data to the keys this version reads when a deploy changes them (migrations/)",
    environment: { TABLE_NAME: table.tableName },
  });
  table.grantReadWriteData(migrate);
  data.wireSecrets(migrate, (key, value) => migrate.addEnvironment(key, value));
  const migration = new CustomResource(scope, 'Migration', {
    serviceToken: migrate.functionArn,
    resourceType: 'Custom::Migration',
    properties: { SchemaVersion: SCHEMA_VERSION },
  });
  for (const reader of readers) reader.node.addDependency(migration);
  return migration;
}
