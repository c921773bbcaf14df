import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App } from 'aws-cdk-lib';
import { Match, Template } from 'aws-cdk-lib/assertions';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ServiceStack } from '../../lib/service-stack.js';
import { STREAMABLE_ROUTES, routeKeyOf } from '../../shared/wiring/route-table.js';

/**
 * The streaming front door: the stream function behind a function URL with response streaming,
 * and the CloudFront distribution that puts it and the HTTP API on one domain.
 */

type Resource = { Type: string; Properties: Record<string, unknown> };
type Resources = Record<string, Resource>;

/** CloudFront's managed policies (their ids are fixed by AWS). */
const CACHING_DISABLED = '4135ea2d-6df8-44a3-9df3-4b5a84be39ad';
const ALL_VIEWER_EXCEPT_HOST_HEADER = 'b689b0a8-53d0-40ab-baf2-68738e2966ac';
const ALL_METHODS = ['GET', 'HEAD', 'OPTIONS', 'PUT', 'PATCH', 'POST', 'DELETE'];

interface Behaviour {
  PathPattern?: string;
  TargetOriginId: string;
  AllowedMethods: string[];
  CachePolicyId: string;
  OriginRequestPolicyId: string;
  ViewerProtocolPolicy: string;
  Compress: boolean;
  FunctionAssociations?: { EventType: string; FunctionARN: unknown }[];
}
interface DistributionConfig {
  DefaultCacheBehavior: Behaviour;
  CacheBehaviors: Behaviour[];
  Origins: {
    Id: string;
    DomainName: unknown;
    CustomOriginConfig: { OriginReadTimeout?: number; OriginProtocolPolicy: string };
    OriginCustomHeaders?: { HeaderName: string; HeaderValue: unknown }[];
  }[];
  Logging?: { IncludeCookies: boolean };
}

const outdirs: string[] = [];
function synth(props: ConstructorParameters<typeof ServiceStack>[2] = {}): Template {
  const outdir = mkdtempSync(join(tmpdir(), 'wap-cdk-'));
  outdirs.push(outdir);
  return Template.fromStack(new ServiceStack(new App({ outdir }), 'Stream', props));
}

let template: Template;
let resources: Resources;
beforeAll(() => {
  template = synth();
  resources = (template.toJSON() as { Resources: Resources }).Resources;
}, 120_000);
afterAll(() => {
  for (const outdir of outdirs) rmSync(outdir, { recursive: true, force: true });
});

/** A resource's properties, by logical id (failing the test when there is none). */
function propertiesOf(id: string): Record<string, unknown> {
  const found = resources[id];
  if (!found) throw new Error(`no resource ${id}`);
  return found.Properties;
}
const ofType = (type: string) => Object.entries(resources).filter(([, resource]) => resource.Type === type);
function functionId(description: string): string {
  const found = ofType('AWS::Lambda::Function').filter(([, fn]) => String(fn.Properties.Description).startsWith(description));
  expect(found).toHaveLength(1);
  return found[0]?.[0] ?? '';
}
const streamFunctionId = () => functionId('The query and the messaging webhook, streamed');
const agentFunctionId = () => functionId('The query (agent loop');
const urlId = () => ofType('AWS::Lambda::Url')[0]?.[0] ?? '';
const distribution = () => ofType('AWS::CloudFront::Distribution')[0]?.[1].Properties.DistributionConfig as DistributionConfig;
/** The origin a behaviour sends to, by what its domain name is made of. */
const originOf = (behaviour: Behaviour) => JSON.stringify(distribution().Origins.find((origin) => origin.Id === behaviour.TargetOriginId));
/** The behaviours of the API's origins (the default behaviour is the web console's: test/infra/console.test.ts). */
const API_PATTERNS = ['/api/*', '/scim/*', '/oauth/*', '/.well-known/oauth-*', '/hooks/*', '/health'];
/** The console's paths among the behaviours: the MCP gateway's consent page. */
const CONSOLE_PATTERNS = ['/oauth/consent/*'];
const streamBehaviours = () =>
  distribution().CacheBehaviors.filter((behaviour) => ![...API_PATTERNS, ...CONSOLE_PATTERNS].includes(behaviour.PathPattern ?? ''));
const apiBehaviours = () => distribution().CacheBehaviors.filter((behaviour) => API_PATTERNS.includes(behaviour.PathPattern ?? ''));
/** The origins the functions sit behind (not the console's bucket). */
const functionOrigins = () => distribution().Origins.filter((origin) => origin.CustomOriginConfig !== undefined);

describe('the stream function', () => {
  it('runs the stream entry point far longer than API Gateway would wait (30 s)', () => {
    const fn = propertiesOf(streamFunctionId());
    expect(fn).toMatchObject({ Runtime: 'nodejs22.x', Architectures: ['arm64'], MemorySize: 1024 });
    expect(Number(fn.Timeout)).toBeGreaterThan(30);
    expect(Number(fn.Timeout)).toBe(900);
  });

  it('has a function URL with response streaming and no IAM auth (the app authenticates), and no CORS unless configured', () => {
    template.resourceCountIs('AWS::Lambda::Url', 1);
    expect(propertiesOf(urlId())).toEqual({
      AuthType: 'NONE',
      InvokeMode: 'RESPONSE_STREAM',
      TargetFunctionArn: { 'Fn::GetAtt': [streamFunctionId(), 'Arn'] },
    });
    const permissions = ofType('AWS::Lambda::Permission')
      .map(([, permission]) => permission.Properties)
      .filter((permission) => JSON.stringify(permission.FunctionName).includes(streamFunctionId()));
    expect(permissions).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ Action: 'lambda:InvokeFunctionUrl', FunctionUrlAuthType: 'NONE', Principal: '*' }),
      ]),
    );
  });

  it('gets the environment and grants of the agent function (but PUBLIC_BASE_URL)', () => {
    const variables = (id: string) =>
      Object.keys((propertiesOf(id).Environment as { Variables: Record<string, unknown> }).Variables).sort();
    expect(variables(streamFunctionId())).toEqual(variables(agentFunctionId()).filter((name) => name !== 'PUBLIC_BASE_URL'));
    const actions = (id: string) => {
      const role = JSON.stringify((propertiesOf(id).Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0]);
      const policies = ofType('AWS::IAM::Policy').filter(([, candidate]) => JSON.stringify(candidate.Properties.Roles).includes(role));
      expect(policies).toHaveLength(1);
      const statements = policies.flatMap(
        ([, policy]) => (policy.Properties.PolicyDocument as { Statement: { Action: string | string[] }[] }).Statement,
      );
      return statements.flatMap((statement) => statement.Action).sort();
    };
    expect(actions(streamFunctionId())).toEqual(actions(agentFunctionId()));
    expect(actions(streamFunctionId())).toEqual(
      expect.arrayContaining(['secretsmanager:GetSecretValue', 'kms:Decrypt', 'bedrock:InvokeModel', 'sqs:SendMessage', 'dynamodb:Query']),
    );
  });
});

describe('the CloudFront distribution', () => {
  it('sends the streamable routes of the route table to the function URL: all methods, nothing cached, every viewer header but Host', () => {
    expect(STREAMABLE_ROUTES.map(routeKeyOf)).toEqual([
      'POST /api/workspaces/{id}/query',
      'POST /api/consumers/{id}/messages',
      'ANY /api/workspaces/{id}/mcp',
      'POST /api/workspaces/{id}/approvals/{approval_id}',
    ]);
    // They are the agent function's routes on the HTTP API too (for ApiUrl): the same app serves them.
    expect(STREAMABLE_ROUTES.every((entry) => entry.runs === 'agent')).toBe(true);
    const behaviours = streamBehaviours();
    expect(behaviours.map((behaviour) => behaviour.PathPattern).sort()).toEqual([
      '/api/consumers/*/messages',
      '/api/workspaces/*/approvals/*',
      '/api/workspaces/*/mcp',
      '/api/workspaces/*/query',
    ]);
    for (const behaviour of behaviours) {
      expect(behaviour).toMatchObject({
        AllowedMethods: ALL_METHODS,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
        Compress: false,
      });
      expect(originOf(behaviour)).toContain(`"Fn::GetAtt":["${urlId()}","FunctionUrl"]`);
      // The viewer's Host goes on as X-Forwarded-Host (the MCP endpoint's sign-in challenge names it).
      expect(behaviour.FunctionAssociations).toEqual([{ EventType: 'viewer-request', FunctionARN: expect.anything() }]);
    }
    const [[, forward] = []] = ofType('AWS::CloudFront::Function').filter(([, fn]) =>
      String(fn.Properties.FunctionCode).includes('x-forwarded-host'),
    );
    type Request = { headers: Record<string, { value: string }> };
    const handler = new Function(`${String(forward?.Properties.FunctionCode)}; return handler;`)() as (event: {
      request: Request;
    }) => Request;
    const request = handler({ request: { headers: { host: { value: 'd111.cloudfront.net' } } } });
    expect(request.headers['x-forwarded-host']).toEqual({ value: 'd111.cloudfront.net' });
  });

  it('waits 60 s for the stream origin (a stream sends at once and every 15 s), over HTTPS only', () => {
    const stream = distribution().Origins.find((origin) => JSON.stringify(origin).includes(urlId()));
    expect(stream?.CustomOriginConfig).toMatchObject({ OriginReadTimeout: 60, OriginProtocolPolicy: 'https-only' });
  });

  it('sends every other /api path, SCIM provisioning, the authorization server and /health to the HTTP API, uncached, with all methods, after the streamable routes', () => {
    expect(apiBehaviours().map((behaviour) => behaviour.PathPattern)).toEqual(API_PATTERNS);
    const apiId = ofType('AWS::ApiGatewayV2::Api')[0]?.[0];
    for (const behaviour of apiBehaviours()) {
      expect(behaviour).toMatchObject({
        AllowedMethods: ALL_METHODS,
        CachePolicyId: CACHING_DISABLED,
        OriginRequestPolicyId: ALL_VIEWER_EXCEPT_HOST_HEADER,
        ViewerProtocolPolicy: 'https-only',
      });
      expect(originOf(behaviour)).toContain(`{"Ref":"${apiId}"},".execute-api."`);
      expect(originOf(behaviour)).not.toContain(urlId());
    }
    // CloudFront takes the first pattern that matches: /api/* must come after the streamable routes.
    const patterns = distribution().CacheBehaviors.map((behaviour) => behaviour.PathPattern);
    expect(patterns.indexOf('/api/*')).toBe(STREAMABLE_ROUTES.length);
  });

  it('logs requests without their cookies (session tokens)', () => {
    expect(distribution().Logging).toMatchObject({ IncludeCookies: false });
  });

  it("gives the agent function (OAuth redirect URIs), the API function (the MCP gateway's issuer) and the chat bridge (chat links) the distribution's URL, and outputs it as ServiceUrl", () => {
    const distributionId = ofType('AWS::CloudFront::Distribution')[0]?.[0];
    const publicUrl = { 'Fn::Join': ['', ['https://', { 'Fn::GetAtt': [distributionId, 'DomainName'] }]] };
    const agent = propertiesOf(agentFunctionId()).Environment as { Variables: Record<string, unknown> };
    expect(agent.Variables.PUBLIC_BASE_URL).toEqual(publicUrl);
    const api = propertiesOf(functionId('The HTTP API')).Environment as { Variables: Record<string, unknown> };
    expect(api.Variables.PUBLIC_BASE_URL).toEqual(publicUrl);
    template.hasResourceProperties('AWS::ECS::TaskDefinition', {
      ContainerDefinitions: [Match.objectLike({ Environment: Match.arrayWith([{ Name: 'PUBLIC_BASE_URL', Value: publicUrl }]) })],
    });
    const outputs = template.findOutputs('*') as Record<string, { Value: unknown }>;
    expect(outputs.ServiceUrl?.Value).toEqual(publicUrl);
    expect(outputs.StreamFunctionUrl?.Value).toEqual({ 'Fn::GetAtt': [urlId(), 'FunctionUrl'] });
  });

  it('answers CORS on the function URL for the origins the HTTP API allows', () => {
    const withCors = synth({ corsOrigins: ['https://app.example.com'] });
    withCors.hasResourceProperties('AWS::Lambda::Url', {
      InvokeMode: 'RESPONSE_STREAM',
      Cors: { AllowOrigins: ['https://app.example.com'], AllowCredentials: true, AllowMethods: ['POST'], MaxAge: 3600 },
    });
  }, 120_000);
});

describe('the origin secret (CloudFront-Viewer-Address is trusted only with it)', () => {
  const secretId = () => {
    const found = ofType('AWS::SecretsManager::Secret').filter(([, secret]) =>
      String(secret.Properties.Description).startsWith('Sent by CloudFront'),
    );
    expect(found).toHaveLength(1);
    return found[0]?.[0] ?? '';
  };
  /** CloudFormation's dynamic reference to the secret's value: resolved at deploy, never in the template. */
  const dynamicReference = () => ({ 'Fn::Join': ['', ['{{resolve:secretsmanager:', { Ref: secretId() }, ':SecretString:::}}']] });

  it('is generated by Secrets Manager: the template holds no value for it', () => {
    const secret = propertiesOf(secretId());
    expect(secret.GenerateSecretString).toMatchObject({ PasswordLength: 64, ExcludePunctuation: true });
    expect(secret).not.toHaveProperty('SecretString');
  });

  it('is added by CloudFront to the requests to both function origins, as a dynamic reference', () => {
    const origins = functionOrigins();
    expect(origins).toHaveLength(2);
    for (const origin of origins) {
      expect(origin.OriginCustomHeaders).toEqual([{ HeaderName: 'x-origin-verify', HeaderValue: dynamicReference() }]);
    }
  });

  it('appears nowhere in the template as a literal: every x-origin-verify value is the reference', () => {
    const text = JSON.stringify(template.toJSON());
    const literal = /"HeaderName":"x-origin-verify","HeaderValue":"/;
    expect(text).not.toMatch(literal);
    expect(text.split('"HeaderName":"x-origin-verify"').length - 1).toBe(2);
    expect(text.split('{{resolve:secretsmanager:').length - 1).toBe(2);
  });

  it('keeps the origin request policy that forwards CloudFront-Viewer-Address without the viewer Host', () => {
    for (const behaviour of distribution().CacheBehaviors.filter((entry) => !CONSOLE_PATTERNS.includes(entry.PathPattern ?? ''))) {
      expect(behaviour.OriginRequestPolicyId).toBe(ALL_VIEWER_EXCEPT_HOST_HEADER);
    }
  });

  it('is given to the three HTTP functions (its ARN, and read access), not to the jobs consumer', () => {
    const httpFunctions = [functionId('The HTTP API'), agentFunctionId(), streamFunctionId()];
    for (const [id, fn] of ofType('AWS::Lambda::Function').filter(([id]) => !id.startsWith('CustomCDKBucketDeployment'))) {
      const variables = (fn.Properties.Environment as { Variables?: Record<string, unknown> } | undefined)?.Variables ?? {};
      if (httpFunctions.includes(id)) expect(variables.ORIGIN_VERIFY_SECRET_ARN, id).toEqual({ Ref: secretId() });
      else expect(variables, id).not.toHaveProperty('ORIGIN_VERIFY_SECRET_ARN');
    }
    for (const id of httpFunctions) {
      const role = (propertiesOf(id).Role as { 'Fn::GetAtt': string[] })['Fn::GetAtt'][0];
      const statements = ofType('AWS::IAM::Policy')
        .filter(([, policy]) => JSON.stringify(policy.Properties.Roles).includes(`"${role}"`))
        .flatMap(([, policy]) => (policy.Properties.PolicyDocument as { Statement: { Action: unknown; Resource: unknown }[] }).Statement);
      expect(statements, id).toContainEqual(
        expect.objectContaining({ Action: expect.arrayContaining(['secretsmanager:GetSecretValue']), Resource: { Ref: secretId() } }),
      );
    }
  });
});
