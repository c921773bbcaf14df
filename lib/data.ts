import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import { Construct } from 'constructs';
import { TABLE_KEY_SCHEMA } from '../shared/platform/table.js';

/**
 * The single table, from the same key schema the local runtime creates in dynalite
 * (`docs/data-model.md`). Stateful: its logical id must never change, it is retained on stack
 * deletion, protected against deletion, and recoverable to any second of the last 35 days.
 */
export class Data extends Construct {
  readonly table: TableV2;

  constructor(scope: Construct, id: string) {
    super(scope, id);
    const key = (name: string) => ({ name, type: AttributeType.STRING });
    this.table = new TableV2(this, 'Table', {
      partitionKey: key(TABLE_KEY_SCHEMA.partitionKey),
      sortKey: key(TABLE_KEY_SCHEMA.sortKey),
      billing: Billing.onDemand(),
      timeToLiveAttribute: TABLE_KEY_SCHEMA.ttlAttribute,
      pointInTimeRecoverySpecification: { pointInTimeRecoveryEnabled: true },
      deletionProtection: true,
      removalPolicy: RemovalPolicy.RETAIN,
      globalSecondaryIndexes: TABLE_KEY_SCHEMA.indexes.map((index) => ({
        indexName: index.name,
        partitionKey: key(index.partitionKey),
        sortKey: key(index.sortKey),
      })),
    });
  }
}
