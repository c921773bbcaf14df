/**
 * How the Lambda functions are bundled, shared by the CDK constructs (`lib/functions.ts`) and the
 * bundle benchmark (`bench/bundle.ts`), so the benchmark measures what is deployed.
 */
export const LAMBDA_BUNDLE = {
  format: 'esm' as const,
  target: 'node22',
  minify: true,
  sourcemap: false,
  mainFields: ['module', 'main'],
  // The nodejs22.x runtime ships the AWS SDK v3: use it rather than bundle a second copy.
  external: ['@aws-sdk/*'],
  // ESM bundles of CommonJS dependencies still call require() for Node built-ins.
  banner: "import{createRequire as __cr}from'module';const require=__cr(import.meta.url);",
};

/** The entry point of each function. */
export const LAMBDA_ENTRIES = {
  api: 'functions/api/handler.ts',
  agent: 'functions/agent/handler.ts',
  jobs: 'functions/jobs/handler.ts',
} as const;
