import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { Data } from './data.js';

/** The whole service in one stack. Constructs model the parts; later issues add api, jobs and the chat bridge. */
export class ServiceStack extends Stack {
  readonly data: Data;

  constructor(scope: Construct, id: string, props?: StackProps) {
    super(scope, id, props);
    this.data = new Data(this, 'Data');
    new CfnOutput(this, 'TableName', { value: this.data.table.tableName });
  }
}
