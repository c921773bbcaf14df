import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';

/** CDK apps that synthesise into temporary folders, removed by `removeAll` (a test file's `afterAll`). */
export function cdkApps(prefix: string) {
  const outdirs: string[] = [];
  return {
    newApp(): App {
      const outdir = mkdtempSync(join(tmpdir(), prefix));
      outdirs.push(outdir);
      return new App({ outdir });
    },
    removeAll(): void {
      for (const outdir of outdirs.splice(0)) rmSync(outdir, { recursive: true, force: true });
    },
  };
}

/**
 * Synthesises `app` with cdk-nag's AwsSolutions checks and answers its findings (`<rule> at
 * <construct paths>`) and what the synthesis threw: a failing validation may stop it, and the
 * report is written first.
 */
export function nagFindings(app: App): { violations: string[]; threw: unknown } {
  Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
  let threw: unknown;
  try {
    app.synth();
  } catch (error) {
    threw = error;
  }
  const report = JSON.parse(readFileSync(join(app.outdir, 'validation-report.json'), 'utf8')) as {
    pluginReports: { violations: { ruleName: string; violatingConstructs: { constructPath: string }[] }[] }[];
  };
  const violations = report.pluginReports.flatMap((plugin) =>
    plugin.violations.map(
      (violation) => `${violation.ruleName} at ${violation.violatingConstructs.map((c) => c.constructPath).join(', ')}`,
    ),
  );
  return { violations, threw };
}
