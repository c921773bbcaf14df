import { Duration, RemovalPolicy, Stack, Validations } from 'aws-cdk-lib';
import type { HttpApi } from 'aws-cdk-lib/aws-apigatewayv2';
import {
  AllowedMethods,
  CachePolicy,
  Distribution,
  Function as CloudFrontFunction,
  FunctionCode,
  FunctionEventType,
  OriginProtocolPolicy,
  OriginRequestPolicy,
  ViewerProtocolPolicy,
  type BehaviorOptions,
  type IOrigin,
} from 'aws-cdk-lib/aws-cloudfront';
import { FunctionUrlOrigin, HttpOrigin, VpcOrigin } from 'aws-cdk-lib/aws-cloudfront-origins';
import type { IApplicationLoadBalancer } from 'aws-cdk-lib/aws-elasticloadbalancingv2';
import { FunctionUrlAuthType, HttpMethod, InvokeMode, type FunctionUrl, type IFunction } from 'aws-cdk-lib/aws-lambda';
import { BlockPublicAccess, Bucket, BucketEncryption, ObjectOwnership } from 'aws-cdk-lib/aws-s3';
import type { ISecret } from 'aws-cdk-lib/aws-secretsmanager';
import { Construct } from 'constructs';
import { ConsoleSite } from './console.js';
import type { PlacedRoute } from '../shared/http/placement.js';
import { STREAMABLE_ROUTES, fullPath } from '../shared/wiring/route-table.js';
import { ORIGIN_VERIFY_HEADER } from '../shared/platform/viewer-address.js';

export interface FrontDoorProps {
  /** The HTTP API: every path but the streamable routes. */
  httpApi: HttpApi;
  /**
   * Where the streamable routes go: the stream function (`functions/stream/handler.ts`) through its
   * URL, or the agent service's internal load balancer as a VPC origin (lib/agent-service.ts).
   */
  streams: { function: IFunction } | { loadBalancer: IApplicationLoadBalancer };
  /** Origins allowed by CORS (as the HTTP API's); CORS is off when empty. */
  corsOrigins: string[];
  /** Sent to both origins in `x-origin-verify`: the functions trust CloudFront's viewer address only with it. */
  originSecret: ISecret;
  /** The built web console (web/dist), served for every path that is not the API's. */
  consoleDir: string;
}

/** A route's CloudFront path pattern: its path with each parameter as `*`. */
function pathPatternOf(entry: PlacedRoute): string {
  return fullPath(entry).replace(/\{[^}]+\}/g, '*');
}

/**
 * One domain for the whole service (docs/deploy.md): a CloudFront distribution that sends the
 * streamable routes (the query, the messaging webhook) to the stream function's URL with response
 * streaming, which has no 30-second limit, every other `/api/*` path and `/health` to the HTTP
 * API, and everything else to the web console's bucket (lib/console.ts). Nothing of the API is
 * cached: answers depend on who asks. The console and the API share the origin, so the session
 * cookie needs no CORS.
 *
 * The function URL's auth type is NONE: the app authenticates every request (session cookie or
 * Bearer key), as it does behind API Gateway. AWS_IAM behind CloudFront's origin access control
 * would need every client to send the SHA-256 of its POST body (`x-amz-content-sha256`), which no
 * browser, curl user or webhook sender does.
 *
 * Every origin request carries the origin secret (`x-origin-verify`) and the viewer's address
 * (`CloudFront-Viewer-Address`): the functions count sign-ups and logins by that address only when
 * the secret is right (shared/platform/viewer-address.ts). The secret reaches the template as a
 * CloudFormation dynamic reference, resolved by CloudFormation at deploy, never as its value.
 */
export class FrontDoor extends Construct {
  readonly distribution: Distribution;
  /** The stream function's URL (none when the agent service on Fargate serves the streams). */
  readonly functionUrl?: FunctionUrl;
  readonly console: ConsoleSite;

  constructor(scope: Construct, id: string, props: FrontDoorProps) {
    super(scope, id);

    const apiDomain = `${props.httpApi.apiId}.execute-api.${Stack.of(this).region}.${Stack.of(this).urlSuffix}`;
    // CloudFront waits this long for the first byte, and between two bytes. A stream sends its
    // `start` event at once and a comment every 15 s; a JSON answer must come within it. 60 s is
    // within every account's quota (longer needs a quota increase).
    // `unsafeUnwrap` gives the token of `{{resolve:secretsmanager:…}}`, not the value.
    const customHeaders = { [ORIGIN_VERIFY_HEADER]: props.originSecret.secretValue.unsafeUnwrap() };
    let stream: IOrigin;
    if ('function' in props.streams) {
      this.functionUrl = this.streamUrl(props.streams.function, props.corsOrigins);
      stream = new FunctionUrlOrigin(this.functionUrl, { readTimeout: Duration.seconds(60), customHeaders });
    } else {
      // Inside AWS's network to an internal balancer; the service answers CORS itself (`CORS_ORIGINS`).
      stream = VpcOrigin.withApplicationLoadBalancer(props.streams.loadBalancer, {
        httpPort: 80,
        protocolPolicy: OriginProtocolPolicy.HTTP_ONLY,
        readTimeout: Duration.seconds(60),
        customHeaders,
      });
    }
    const forwardHost = this.forwardHost();
    const behaviour = (origin: IOrigin, viewerFunction?: CloudFrontFunction): BehaviorOptions => ({
      origin,
      ...(viewerFunction ? { functionAssociations: [{ function: viewerFunction, eventType: FunctionEventType.VIEWER_REQUEST }] } : {}),
      allowedMethods: AllowedMethods.ALLOW_ALL,
      cachePolicy: CachePolicy.CACHING_DISABLED,
      // Every viewer header but Host (the origin's own domain is its Host), all cookies and query
      // strings, and CloudFront's headers, CloudFront-Viewer-Address among them.
      // ALL_VIEWER_AND_CLOUDFRONT_2022 would forward the viewer's Host, which neither API Gateway
      // nor a function URL answers.
      originRequestPolicy: OriginRequestPolicy.ALL_VIEWER_EXCEPT_HOST_HEADER,
      viewerProtocolPolicy: ViewerProtocolPolicy.HTTPS_ONLY,
      // Compressing a stream of events would hold them back until a block fills.
      compress: false,
    });

    const api = behaviour(new HttpOrigin(apiDomain, { customHeaders }));
    this.console = new ConsoleSite(this, 'Console', { dir: props.consoleDir });
    this.distribution = new Distribution(this, 'Distribution', {
      comment: 'Workspace agent proxy: the web console, the API, and its streamed answers',
      defaultBehavior: this.console.behaviour,
      // CloudFront tries these in order: the streamable routes before the rest of /api/*.
      additionalBehaviors: {
        ...Object.fromEntries(STREAMABLE_ROUTES.map((entry) => [pathPatternOf(entry), behaviour(stream, forwardHost)])),
        '/api/*': api,
        // SCIM provisioning by the organisations' identity providers (shared/scim).
        '/scim/*': api,
        // The MCP gateway's authorization server (shared/oauth): its consent page is the console's,
        // every other /oauth/* path and its metadata are the API's.
        '/oauth/consent/*': this.console.behaviour,
        '/oauth/*': api,
        '/.well-known/oauth-*': api,
        // Routines' webhooks (shared/routines/hook-routes.ts): signed by their callers, public otherwise.
        '/hooks/*': api,
        '/health': api,
      },
      defaultRootObject: 'index.html',
      logBucket: this.accessLogBucket(),
      logIncludesCookies: false,
    });
    this.console.deploy(this.distribution);
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR1',
      reason: 'The service has users wherever its organisations are; there is no country to refuse.',
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR2',
      reason:
        "Every request is authenticated by the application and limited per organisation; the HTTP API is throttled. A web ACL (billed per rule and request) is the operator's choice (docs/deploy.md).",
    });
    Validations.of(this.distribution).acknowledge({
      id: 'AwsSolutions-CFR4',
      reason:
        "The distribution uses its cloudfront.net domain, whose certificate's minimum TLS version cannot be set; a custom domain with its own certificate can require TLS 1.2.",
    });
  }

  /** The stream function's URL, streaming its answers; CORS as the HTTP API's. */
  /**
   * The viewer's Host as X-Forwarded-Host on the streamed routes: the stream function cannot be
   * given the distribution's address (it is this distribution's origin), and the MCP endpoint's
   * sign-in challenge names it (shared/oauth/resources.ts, publicOriginOf).
   */
  private forwardHost(): CloudFrontFunction {
    return new CloudFrontFunction(this, 'ForwardHost', {
      comment: 'The viewer Host as X-Forwarded-Host, for the MCP endpoint sign-in challenge',
      code: FunctionCode.fromInline(
        'function handler(event) { var request = event.request; if (request.headers.host) request.headers["x-forwarded-host"] = { value: request.headers.host.value }; return request; }',
      ),
    });
  }

  private streamUrl(fn: IFunction, corsOrigins: string[]): FunctionUrl {
    return fn.addFunctionUrl({
      authType: FunctionUrlAuthType.NONE,
      invokeMode: InvokeMode.RESPONSE_STREAM,
      cors: corsOrigins.length
        ? {
            allowedOrigins: corsOrigins,
            allowCredentials: true,
            allowedHeaders: ['content-type', 'authorization', 'accept'],
            allowedMethods: [HttpMethod.POST],
            maxAge: Duration.hours(1),
          }
        : undefined,
    });
  }

  /** CloudFront's access logs (the stream paths have no API Gateway log): kept 3 months, like the API's. */
  private accessLogBucket(): Bucket {
    const bucket = new Bucket(this, 'AccessLogs', {
      // CloudFront's standard logs are delivered with an ACL grant.
      objectOwnership: ObjectOwnership.OBJECT_WRITER,
      blockPublicAccess: BlockPublicAccess.BLOCK_ALL,
      encryption: BucketEncryption.S3_MANAGED,
      enforceSSL: true,
      lifecycleRules: [{ expiration: Duration.days(90) }],
      // Deleting a bucket that holds logs fails; it expires its logs and is deleted by hand (docs/deploy.md).
      removalPolicy: RemovalPolicy.RETAIN,
    });
    Validations.of(bucket).acknowledge({
      id: 'AwsSolutions-S1',
      reason: 'This bucket holds access logs; logging the access to it would need another bucket for each log bucket.',
    });
    return bucket;
  }

  /** The URL to give users: `https://<id>.cloudfront.net`. */
  get url(): string {
    return `https://${this.distribution.distributionDomainName}`;
  }
}
