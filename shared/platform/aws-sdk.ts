import { createRequire } from 'node:module';
import type * as DynamoDB from '@aws-sdk/client-dynamodb';
import type * as DynamoDBDocuments from '@aws-sdk/lib-dynamodb';

/**
 * The DynamoDB packages of the AWS SDK, loaded with `require` rather than `import`. They are
 * CommonJS, and Node scans a CommonJS module imported from ES modules for its export names before
 * it runs it: on these two packages that costs about 25 ms of every cold start (the functions use
 * the SDK that the Lambda runtime ships, outside the bundle). `require` skips the scan, and
 * resolves the runtime's copy as any CommonJS module would. Types come from the usual imports.
 */
const load = createRequire(import.meta.url);

export const dynamodb = load('@aws-sdk/client-dynamodb') as typeof DynamoDB;
export const documents = load('@aws-sdk/lib-dynamodb') as typeof DynamoDBDocuments;
