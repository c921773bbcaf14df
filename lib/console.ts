import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Duration, RemovalPolicy, Stack, Validations, type CfnElement } from 'aws-cdk-lib';
import {
  AllowedMethods,
  CachePolicy,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  FunctionRuntime,
  HeadersFrameOption,
  HeadersReferrerPolicy,
  ResponseHeadersPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type IDistribution,
} from 'aws-cdk-lib/aws-cloudfront';
import { S3BucketOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import { Role, ServicePrincipal } from 'aws-cdk-lib/aws-iam';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import { BlockPublicAccess, Bucket, BucketEncryption } from 'aws-cdk-lib/aws-s3';
import { BucketDeployment, CacheControl, Source } from 'aws-cdk-lib/aws-s3-deployment';
import { Construct } from 'constructs';
import { CONSOLE_CSP } from '../shared/http/console-policy.js';

export interface ConsoleSiteProps {
  /** The built console (web/dist: index.html and assets/), built before synth by bin/app.ts. */
  dir: string;
}

/** `CONSOLE_CSP` (camelCase directives, as Hono takes them) as a header value. */
function cspHeader(): string {
  return Object.entries(CONSOLE_CSP)
    .map(([directive, sources]) => `${directive.replace(/[A-Z]/g, (letter) => `-${letter.toLowerCase()}`)} ${sources.join(' ')}`)
    .join('; ');
}

/**
 * The single-page app's routes (/workspaces/ws-1/dashboard) are not files: CloudFront asks the
 * bucket for index.html instead of any path without a file extension. A function on the console's
 * behaviour only, so an API path's 404 stays the API's.
 */
const SPA_ROUTING = `function handler(event) {
  var request = event.request;
  var last = request.uri.split('/').pop();
  if (last.indexOf('.') === -1) request.uri = '/index.html';
  return request;
}`;

/**
 * The web console on AWS: its static files in a private bucket that only CloudFront reads (origin
 * access control), served as the distribution's default behaviour with the same security headers as
 * the local runtime; `/api/*` stays the API's (lib/front-door.ts). Hashed assets are cached for a
 * year; index.html is revalidated, and invalidated on each deploy.
 */
export class ConsoleSite extends Construct {
  readonly bucket: Bucket;
  readonly behaviour: BehaviorOptions;
  private readonly dir: string;

  constructor(scope: Construct, id: string, props: ConsoleSiteProps) {
    super(scope, id);
    if (!existsSync(join(props.dir, 'index.html'))) {
      throw new Error(`the web console is not built in ${props.dir}: run \`npm run build:web\` first (npm run synth does)`);
    }
    this.dir = props.dir;
    this.bucket = new Bucket(this, 'Files', {
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      // A stack cannot delete a bucket that holds objects (emptying it on destroy would take one
      // more custom-resource function): it is kept, and removed by hand (docs/deploy.md).
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(this.bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: "The console's public build output; CloudFront's access logs record every request for it.",
    });
    const headers = new ResponseHeadersPolicy(this, 'Headers', {
      comment: "The console's security headers (the same as the local runtime's)",
      securityHeadersBehavior: {
        contentSecurityPolicy: { contentSecurityPolicy: cspHeader(), override: true },
        contentTypeOptions: { override: true },
        frameOptions: { frameOption: HeadersFrameOption.DENY, override: true },
        referrerPolicy: { referrerPolicy: HeadersReferrerPolicy.NO_REFERRER, override: true },
        strictTransportSecurity: { accessControlMaxAge: Duration.days(365), includeSubdomains: true, override: true },
      },
    });
    const routing = new CloudFrontFunction(this, 'SpaRouting', {
      code: FunctionCode.fromInline(SPA_ROUTING),
      runtime: FunctionRuntime.JS_2_0,
      comment: "Serves index.html for the console's own routes",
    });
    this.behaviour = {
      origin: S3BucketOrigin.withOriginAccessControl(this.bucket),
      allowedMethods: AllowedMethods.ALLOW_GET_HEAD,
      cachePolicy: CachePolicy.CACHING_OPTIMIZED,
      responseHeadersPolicy: headers,
      viewerProtocolPolicy: ViewerProtocolPolicy.REDIRECT_TO_HTTPS,
      compress: true,
      functionAssociations: [{ function: routing, eventType: FunctionEventType.VIEWER_REQUEST }],
    };
  }

  /** Uploads the build: assets first (immutable), then index.html, then invalidates index.html in `distribution`. */
  deploy(distribution: IDistribution): void {
    const logGroup = new LogGroup(this, 'DeployLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY });
    // Its own role (no AWS-managed policy), as every function of the stack.
    const role = new Role(this, 'DeployRole', { assumedBy: new ServicePrincipal('lambda.amazonaws.com') });
    logGroup.grantWrite(role);
    const assets = new BucketDeployment(this, 'DeployAssets', {
      // The build's .br and .gz are for the local runtime: CloudFront compresses (`compress: true`).
      sources: [Source.asset(this.dir, { exclude: ['index.html*', 'build-stamp.json', '*.map', '**/*.map', '**/*.br', '**/*.gz'] })],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString('public, max-age=31536000, immutable')],
      // Old assets stay: a browser holding the previous index.html still loads its chunks.
      prune: false,
      role,
      logGroup,
    });
    const page = new BucketDeployment(this, 'DeployPage', {
      sources: [Source.asset(this.dir, { exclude: ['*', '!index.html'] })],
      destinationBucket: this.bucket,
      cacheControl: [CacheControl.fromString('no-cache')],
      prune: false,
      distribution,
      distributionPaths: ['/index.html'],
      role,
      logGroup,
    });
    page.node.addDependency(assets);
    // The grants CDK's bucket deployment makes to its role: read the staged asset, replace the
    // console's objects, invalidate the distribution (CloudFront invalidations take no resource ARN).
    const granted = [
      'Action::s3:GetObject*',
      'Action::s3:GetBucket*',
      'Action::s3:List*',
      'Action::s3:DeleteObject*',
      'Action::s3:Abort*',
      'Resource::arn:<AWS::Partition>:s3:::cdk-hnb659fds-assets-<AWS::AccountId>-<AWS::Region>/*',
      `Resource::<${Stack.of(this).getLogicalId(this.bucket.node.defaultChild as CfnElement)}.Arn>/*`,
      'Resource::*',
    ];
    for (const finding of granted) {
      Validations.of(role).acknowledge({
        id: `AwsSolutions-IAM5[${finding}]`,
        reason: "CDK's bucket deployment copies the staged build into the console's bucket and invalidates index.html; nothing else.",
      });
    }
  }
}
