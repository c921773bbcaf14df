/**
 * Builds one function's bundle (lib/bundling.ts) into a directory: what the CDK constructs run,
 * in a process of their own, to make a function's code (`lib/functions.ts`).
 *
 *   node --import tsx lib/build-lambda.ts <entry> <outdir>
 */
import { buildLambdaBundle } from './bundling.js';

const [entry, outdir] = process.argv.slice(2);
if (!entry || !outdir) throw new Error('usage: build-lambda.ts <entry> <outdir>');
await buildLambdaBundle(entry, outdir);
