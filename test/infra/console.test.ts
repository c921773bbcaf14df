import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceStack } from '../../lib/service-stack.js';

/** The web console on AWS (lib/console.ts): a private bucket behind the distribution's default behaviour. */

type Resources = Record<string, { Type: string; Properties: Record<string, unknown> }>;
interface Behaviour {
  PathPattern?: string;
  TargetOriginId: string;
  AllowedMethods: string[];
  CachePolicyId: string;
  ResponseHeadersPolicyId?: unknown;
  ViewerProtocolPolicy: string;
  Compress?: boolean;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}
interface DistributionConfig {
  DefaultCacheBehavior: Behaviour;
  DefaultRootObject?: string;
  Origins: { Id: string; DomainName: unknown; S3OriginConfig?: unknown; OriginAccessControlId?: unknown }[];
}

const CACHING_OPTIMIZED = '658327ea-f89d-4fab-a63d-7e88639e58f6';
const outdirs: string[] = [];
let resources: Resources;
let template: Template;
beforeAll(() => {
  const outdir = mkdtempSync(join(tmpdir(), 'wap-cdk-'));
  outdirs.push(outdir);
  template = Template.fromStack(new ServiceStack(new App({ outdir }), 'Console'));
  resources = (template.toJSON() as { Resources: Resources }).Resources;
}, 120_000);
afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
const distribution = () => ofType('AWS::CloudFront::Distribution')[0]?.[1].Properties.DistributionConfig as DistributionConfig;
const consoleBucketId = () => ofType('AWS::S3::Bucket').find(([id]) => id.startsWith('FrontDoorConsoleFiles'))?.[0] ?? '';

describe('the web console on AWS', () => {
  it("is the distribution's default behaviour: GET and HEAD from its bucket through origin access control, cached, over HTTPS", () => {
    const fallback = distribution().DefaultCacheBehavior;
    expect(fallback).toMatchObject({
      AllowedMethods: ['GET', 'HEAD'],
      CachePolicyId: CACHING_OPTIMIZED,
      ViewerProtocolPolicy: 'redirect-to-https',
      // Scripts and stylesheets leave CloudFront compressed (Brotli or gzip; the policy keys the cache on both).
      Compress: true,
    });
    const origin = distribution().Origins.find((candidate) => candidate.Id === fallback.TargetOriginId);
    expect(JSON.stringify(origin?.DomainName)).toContain(consoleBucketId());
    expect(origin?.OriginAccessControlId).toBeDefined();
    expect(distribution().DefaultRootObject).toBe('index.html');
  });

  it('keeps its bucket private: public access blocked, TLS only, readable by this distribution alone', () => {
    const bucket = resources[consoleBucketId()]?.Properties;
    expect(bucket?.PublicAccessBlockConfiguration).toEqual({
      BlockPublicAcls: true,
      BlockPublicPolicy: true,
      IgnorePublicAcls: true,
      RestrictPublicBuckets: true,
    });
    const policy = ofType('AWS::S3::BucketPolicy').find(([, candidate]) =>
      JSON.stringify(candidate.Properties.Bucket).includes(consoleBucketId()),
    );
    if (!policy) throw new Error("no policy on the console's bucket");
    const statements = (
      policy[1].Properties.PolicyDocument as { Statement: { Effect: string; Principal?: unknown; Condition?: unknown }[] }
    ).Statement;
    const reads = statements.filter((statement) => statement.Effect === 'Allow');
    expect(reads).toHaveLength(1);
    expect(reads[0]?.Principal).toEqual({ Service: 'cloudfront.amazonaws.com' });
    expect(JSON.stringify(reads[0]?.Condition)).toContain('AWS:SourceArn');
    expect(
      statements.some((statement) => statement.Effect === 'Deny' && JSON.stringify(statement.Condition).includes('aws:SecureTransport')),
    ).toBe(true);
  });

  it("answers index.html for the single-page app's routes (a viewer-request function on its behaviour only)", () => {
    const [[functionId, fn] = []] = ofType('AWS::CloudFront::Function').filter(([, candidate]) =>
      String(candidate.Properties.FunctionCode).includes('index.html'),
    );
    expect(distribution().DefaultCacheBehavior.FunctionAssociations).toEqual([
      { EventType: 'viewer-request', FunctionARN: { 'Fn::GetAtt': [functionId, 'FunctionARN'] } },
    ]);
    const code = String(fn?.Properties.FunctionCode);
    // Run the function's code as CloudFront would: a route becomes /index.html, a file stays.
    const handler = new Function(`${code}; return handler;`)() as (event: { request: { uri: string } }) => { uri: string };
    expect(handler({ request: { uri: '/workspaces/ws-1/dashboard' } }).uri).toBe('/index.html');
    expect(handler({ request: { uri: '/assets/main-ABC.js' } }).uri).toBe('/assets/main-ABC.js');
  });

  it('sends the same security headers as the local runtime: a CSP that allows only this origin, no framing', () => {
    const [[, policy] = []] = ofType('AWS::CloudFront::ResponseHeadersPolicy');
    if (!policy) throw new Error('no response headers policy');
    const security = (policy.Properties.ResponseHeadersPolicyConfig as { SecurityHeadersConfig: Record<string, Record<string, unknown>> })
      .SecurityHeadersConfig;
    expect(security.ContentSecurityPolicy?.ContentSecurityPolicy).toBe(
      "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'",
    );
    expect(security.FrameOptions).toMatchObject({ FrameOption: 'DENY' });
    expect(security.ContentTypeOptions).toMatchObject({ Override: true });
  });

  it('uploads the build: assets cached for a year (old ones kept), then index.html revalidated and invalidated', () => {
    const deployments = ofType('Custom::CDKBucketDeployment').map(([, deployment]) => deployment.Properties);
    expect(deployments).toHaveLength(2);
    const assets = deployments.find((deployment) => deployment.DistributionPaths === undefined);
    const page = deployments.find((deployment) => deployment.DistributionPaths !== undefined);
    expect(assets).toMatchObject({ Prune: false, SystemMetadata: { 'cache-control': 'public, max-age=31536000, immutable' } });
    expect(page).toMatchObject({ DistributionPaths: ['/index.html'], SystemMetadata: { 'cache-control': 'no-cache' } });
    for (const deployment of deployments) expect(JSON.stringify(deployment.DestinationBucketName)).toContain(consoleBucketId());
  });
});
