import { RemovalPolicy } from 'aws-cdk-lib';
import { AttributeType, Billing, ProjectionType, TableV2 } from 'aws-cdk-lib/aws-dynamodb';
import type { IGrantable } from 'aws-cdk-lib/aws-iam';
import { Key } from 'aws-cdk-lib/aws-kms';
import { Construct } from 'constructs';
import { TABLE_KEY_SCHEMA } from '../shared/platform/table.js';

/**
 * The single table, from the same key schema the local runtime creates in dynalite
 * (`docs/data-model.md`). Stateful: its logical id must never change, it is retained on stack
 * deletion, protected against deletion, and recoverable to any second of the last 35 days.
 */
export class Data extends Construct {
  readonly table: TableV2;
  /**
   * Wraps the data keys of the secrets kept in the table (envelope encryption, docs/security.md):
   * retained with the table, rotated yearly by KMS (old versions still decrypt).
   */
  readonly secretsKey: Key;

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
        ...(index.projection.type === 'INCLUDE'
          ? { projectionType: ProjectionType.INCLUDE, nonKeyAttributes: [...index.projection.attributes] }
          : { projectionType: index.projection.type === 'ALL' ? ProjectionType.ALL : ProjectionType.KEYS_ONLY }),
      })),
    });
    this.secretsKey = new Key(this, 'SecretsKey', {
      description: 'Workspace agent proxy: wraps the data keys of secrets at rest (settings, connection credentials, OAuth tokens)',
      enableKeyRotation: true,
      removalPolicy: RemovalPolicy.RETAIN,
    });
  }

  /** Lets a function or task seal and open secrets: the key's use (not its administration), and its id in the environment. */
  wireSecrets(principal: IGrantable, addEnvironment: (key: string, value: string) => void): void {
    this.secretsKey.grant(principal, 'kms:GenerateDataKey', 'kms:Decrypt');
    addEnvironment('SECRETS_KMS_KEY_ID', this.secretsKey.keyArn);
  }
}
