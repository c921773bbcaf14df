import { CustomResource, Duration } from 'aws-cdk-lib';
import type { ITableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { Construct, IConstruct } from 'constructs';
import { SCHEMA_VERSION } from '../migrations/index.js';
import { serviceFunction } from './functions.js';

/**
 * The deploy's migration of stored data (functions/migrate/handler.ts): a function with the table
 * only, and a custom resource whose property is the schema version this code reads, so that
 * CloudFormation runs it when the version changes (and at the first deploy), after the table and
 * before `readers` (the functions, queues and bridge that read the table) are updated.
 */
export function migrateBefore(scope: Construct, table: ITableV2, readers: IConstruct[]): CustomResource {
  const migrate = serviceFunction(scope, 'MigrateFunction', {
    entry: 'functions/migrate/handler.ts',
    memorySize: 512,
    timeout: Duration.minutes(15),
    description: "Brings the table's data to the keys this version reads when a deploy changes them (migrations/)",
    environment: { TABLE_NAME: table.tableName },
  });
  table.grantReadWriteData(migrate);
  const migration = new CustomResource(scope, 'Migration', {
    serviceToken: migrate.functionArn,
    resourceType: 'Custom::Migration',
    properties: { SchemaVersion: SCHEMA_VERSION },
  });
  for (const reader of readers) reader.node.addDependency(migration);
  return migration;
}
