import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { beforeAll, describe, expect, it } from 'vitest';
import { ServiceStack } from '../../lib/service-stack.js';
import { TABLE_KEY_SCHEMA } from '../../shared/platform/table.js';

let template: Template;
beforeAll(() => {
  const app = new App();
  template = Template.fromStack(new ServiceStack(app, 'Test'));
});

describe('Data construct', () => {
  it('keeps the table under a stable logical id', () => {
    expect(Object.keys(template.findResources('AWS::DynamoDB::GlobalTable'))).toEqual(['DataTableFDBAD0F2']);
  });

  it('creates the single table of docs/data-model.md: keys, indexes, TTL, on demand', () => {
    template.hasResourceProperties('AWS::DynamoDB::GlobalTable', {
      KeySchema: [
        { AttributeName: 'pk', KeyType: 'HASH' },
        { AttributeName: 'sk', KeyType: 'RANGE' },
      ],
      BillingMode: 'PAY_PER_REQUEST',
      TimeToLiveSpecification: { AttributeName: 'ttl', Enabled: true },
      GlobalSecondaryIndexes: TABLE_KEY_SCHEMA.indexes.map((index) => ({
        IndexName: index.name,
        KeySchema: [
          { AttributeName: index.partitionKey, KeyType: 'HASH' },
          { AttributeName: index.sortKey, KeyType: 'RANGE' },
        ],
        Projection:
          index.projection.type === 'INCLUDE'
            ? { ProjectionType: 'INCLUDE', NonKeyAttributes: [...index.projection.attributes] }
            : { ProjectionType: index.projection.type },
      })),
    });
  });

  it("projects only the overdue sweep's attributes into the conversations' due indexes (gsi4; gsi5 the keys and the organisation), whole items elsewhere", () => {
    const [table] = Object.values(template.findResources('AWS::DynamoDB::GlobalTable'));
    const indexes = table?.Properties.GlobalSecondaryIndexes as { IndexName: string; Projection: unknown }[];
    expect(Object.fromEntries(indexes.map((index) => [index.IndexName, index.Projection]))).toEqual({
      gsi1: { ProjectionType: 'ALL' },
      gsi2: { ProjectionType: 'ALL' },
      gsi3: { ProjectionType: 'ALL' },
      gsi4: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['org_id', 'workspace_id', 'id', 'last_activity_at', 'due_at'] },
      gsi5: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['org_id'] },
    });
  });

  it('is retained, protected against deletion, and point-in-time recoverable', () => {
    template.hasResource('AWS::DynamoDB::GlobalTable', {
      DeletionPolicy: 'Retain',
      UpdateReplacePolicy: 'Retain',
      Properties: Match.objectLike({
        Replicas: [
          Match.objectLike({
            DeletionProtectionEnabled: true,
            PointInTimeRecoverySpecification: { PointInTimeRecoveryEnabled: true },
          }),
        ],
      }),
    });
  });
});
