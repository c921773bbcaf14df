import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceStack } from '../../lib/service-stack.js';
import { cdkApps, nagFindings } from '../support/cdk.js';

/*
 * Hybrid knowledge search on AWS (docs/knowledge.md, "Embeddings"): with an embedding model named
 * at deploy, an S3 vector bucket, the Bedrock model's grant and the settings every process that
 * builds the app's deps reads; without one, none of it (test/infra/stack.test.ts, on the stack it
 * synthesises anyway).
 */

type Resources = Record<string, { Properties: Record<string, any>; DeletionPolicy?: string }>;
const { newApp, removeAll } = cdkApps('wap-cdk-embed-');
let template: Template;
const JOBS = 'Background jobs:';

beforeAll(() => {
  template = Template.fromStack(new ServiceStack(newApp(), 'Embedded', { embeddings: {} }));
}, 120_000);
afterAll(() => removeAll());

const resourcesOf = (type: string) => template.findResources(type) as Resources;

/** Every statement of the policies attached to the role of the function whose description starts so. */
function statementsOfFunction(descriptionStart: string) {
  const fn = Object.values(resourcesOf('AWS::Lambda::Function')).find((candidate) =>
    String(candidate.Properties.Description).startsWith(descriptionStart),
  );
  const role = fn?.Properties.Role?.['Fn::GetAtt']?.[0];
  expect(role, descriptionStart).toBeDefined();
  return Object.values(resourcesOf('AWS::IAM::Policy'))
    .filter((policy) => JSON.stringify(policy.Properties.Roles).includes(`"${role}"`))
    .flatMap((policy) => policy.Properties.PolicyDocument.Statement as { Action: string | string[]; Resource: unknown }[])
    .map((statement) => ({ actions: [statement.Action].flat(), resource: JSON.stringify(statement.Resource) }));
}

describe('the stack with embeddings', () => {
  it('keeps the vectors in an S3 vector bucket, retained, encrypted', () => {
    const buckets = Object.values(resourcesOf('AWS::S3Vectors::VectorBucket'));
    expect(buckets).toHaveLength(1);
    expect(buckets[0]?.DeletionPolicy).toBe('Retain');
    expect(buckets[0]?.Properties.EncryptionConfiguration).toEqual({ SseType: 'AES256' });
  });

  it('lets the jobs consumer embed with Titan v2 and write the vector indexes, the API and agent only query them', () => {
    const jobGrants = statementsOfFunction(JOBS);
    expect(jobGrants).toContainEqual({
      actions: ['bedrock:InvokeModel'],
      resource: expect.stringContaining('foundation-model/amazon.titan-embed-text-v2:0'),
    });
    const vectorGrant = jobGrants.find((grant) => grant.actions.includes('s3vectors:PutVectors'));
    expect(vectorGrant?.actions).toEqual(
      expect.arrayContaining(['s3vectors:CreateIndex', 's3vectors:DeleteVectors', 's3vectors:QueryVectors']),
    );
    expect(vectorGrant?.resource).toContain('/index/*');
    const apiVectorActions = statementsOfFunction('The HTTP API, except').flatMap((grant) =>
      grant.actions.filter((action) => action.startsWith('s3vectors:')),
    );
    expect(apiVectorActions.sort()).toEqual(['s3vectors:GetVectors', 's3vectors:QueryVectors']);
  });

  it('gives every service function the provider, the model and the vector bucket', () => {
    const services = Object.values(resourcesOf('AWS::Lambda::Function')).filter(
      (fn) => fn.Properties.Environment?.Variables?.KNOWLEDGE_BUCKET,
    );
    expect(services.length).toBeGreaterThanOrEqual(4);
    for (const fn of services) {
      expect(fn.Properties.Environment.Variables).toMatchObject({
        EMBEDDINGS_PROVIDER: 'bedrock',
        EMBEDDINGS_MODEL: 'amazon.titan-embed-text-v2:0',
        VECTOR_BUCKET_ARN: { 'Fn::GetAtt': [expect.stringMatching(/^KnowledgeVectors/), 'VectorBucketArn'] },
      });
    }
  });

  it('reports no cdk-nag finding that is neither fixed nor acknowledged with a reason', () => {
    const nagged = newApp();
    new ServiceStack(nagged, 'NagEmbedded', { embeddings: { model: 'cohere.embed-multilingual-v3' } });
    const { violations, threw } = nagFindings(nagged);
    expect(violations).toEqual([]);
    expect(threw).toBeUndefined();
  }, 120_000);
});
