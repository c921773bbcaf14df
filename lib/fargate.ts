import { RemovalPolicy } from 'aws-cdk-lib';
import { FlowLogDestination, FlowLogTrafficType, type SubnetConfiguration, Vpc } from 'aws-cdk-lib/aws-ec2';
import { Platform } from 'aws-cdk-lib/aws-ecr-assets';
import { ContainerImage } from 'aws-cdk-lib/aws-ecs';
import { LogGroup, RetentionDays } from 'aws-cdk-lib/aws-logs';
import type { Construct } from 'constructs';
import { join } from 'node:path';

/*
 * What the Fargate services (the team-chat bridge, the agent service) build the same way: their
 * image, from one Dockerfile with the entry as a build argument, and their network, with no NAT
 * gateway (a NAT would cost more at rest than a task) and its rejected traffic logged.
 */

const root = join(import.meta.dirname, '..');

/** The arm64 image of a Fargate entry (`functions/<name>/main.ts`), bundled by esbuild in `functions/Dockerfile`. */
export function fargateImage(entry: string): ContainerImage {
  return ContainerImage.fromAsset(root, {
    file: 'functions/Dockerfile',
    buildArgs: { ENTRY: entry },
    platform: Platform.LINUX_ARM64,
    exclude: ['node_modules', 'cdk.out', '.data', '.git', 'test', 'bench', 'docs', 'web'],
  });
}

/** A VPC of two zones without NAT gateways (`Network`), its rejected traffic kept a month (`FlowLogs`). */
export function flowLoggedVpc(scope: Construct, subnetConfiguration: SubnetConfiguration[]): Vpc {
  const vpc = new Vpc(scope, 'Network', { maxAzs: 2, natGateways: 0, subnetConfiguration });
  vpc.addFlowLog('RejectedTraffic', {
    trafficType: FlowLogTrafficType.REJECT,
    destination: FlowLogDestination.toCloudWatchLogs(
      new LogGroup(scope, 'FlowLogs', { retention: RetentionDays.ONE_MONTH, removalPolicy: RemovalPolicy.DESTROY }),
    ),
  });
  return vpc;
}
