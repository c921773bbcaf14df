import type { DynamoDBClient as Client } from '@aws-sdk/client-dynamodb';
import { dynamodb } from './aws-sdk.js';
import type { Config } from './config.js';

const { DynamoDBClient } = dynamodb;

/**
 * The DynamoDB client: on AWS the default credential chain and region; locally (and in tests) the
 * embedded dynalite endpoint with placeholder credentials, which it does not check.
 */
export function createDynamoClient(config: Pick<Config, 'awsRegion'>, endpoint?: string): Client {
  if (!endpoint) return new DynamoDBClient({ region: config.awsRegion });
  return new DynamoDBClient({
    region: config.awsRegion,
    endpoint,
    credentials: { accessKeyId: 'local', secretAccessKey: 'local' },
    // dynalite is on loopback: retries exist for the AWS case, keep them few and quick here.
    maxAttempts: 3,
  });
}
