/**
 * House measures: the largest files and the longest functions of the production code.
 * `tsx scripts/measure.ts [--max-lines N] [--max-function N]` fails (exit 1) when a file in shared/
 * or web/src/ (the console) or a function anywhere is over its limit. The console's TSX is held to
 * the same limits as shared/: a page over 350 lines is doing more than one thing (a form, a table,
 * a dialog), and each of those is a module of its own in the page's folder. Generated declarations
 * (`web/src/api/schema.d.ts`) are not read.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';

const ROOTS = ['shared', 'bin', 'functions', 'lib', 'web/src'];
/** The roots whose files are held to the file limit too (bin/, functions/ and lib/ are wiring). */
const SIZED = ['shared/', 'web/src/'];

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return filesUnder(path);
    return /\.tsx?$/.test(path) && !path.endsWith('.d.ts') ? [path] : [];
  });
}

interface FunctionSize {
  file: string;
  name: string;
  lines: number;
}

/** A function whose body only registers routes (calls `.openapi(...)` or `.route(...)`) is a table. */
function isRouteTable(node: ts.FunctionLikeDeclaration, source: ts.SourceFile): boolean {
  if (!node.body || !ts.isBlock(node.body) || !/routes\.ts$/.test(source.fileName)) return false;
  return node.body.statements.every((statement) => {
    if (ts.isReturnStatement(statement) || ts.isVariableStatement(statement)) return true;
    if (!ts.isExpressionStatement(statement)) return false;
    const text = statement.expression.getText(source);
    return /^\w+\.(openapi|route|use)\(/.test(text);
  });
}

function nameOf(node: ts.Node, source: ts.SourceFile): string {
  if ((ts.isFunctionDeclaration(node) || ts.isMethodDeclaration(node)) && node.name) return node.name.getText(source);
  const parent = node.parent;
  if (parent && ts.isVariableDeclaration(parent)) return parent.name.getText(source);
  if (parent && ts.isPropertyAssignment(parent)) return parent.name.getText(source);
  const { line } = source.getLineAndCharacterOfPosition(node.getStart(source));
  return `(anonymous, line ${line + 1})`;
}

function functionsOf(file: string): FunctionSize[] {
  const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
  const sizes: FunctionSize[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isFunctionLike(node) && 'body' in node && node.body) {
      const declaration = node as ts.FunctionLikeDeclaration;
      const start = source.getLineAndCharacterOfPosition(node.getStart(source)).line;
      const end = source.getLineAndCharacterOfPosition(node.getEnd()).line;
      if (!isRouteTable(declaration, source)) sizes.push({ file, name: nameOf(node, source), lines: end - start + 1 });
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return sizes;
}

const args = process.argv.slice(2);
const limit = (flag: string, fallback: number) => {
  const index = args.indexOf(flag);
  return index >= 0 ? Number(args[index + 1]) : fallback;
};
const maxLines = limit('--max-lines', 350);
const maxFunction = limit('--max-function', 80);

const files = ROOTS.flatMap(filesUnder);
const fileSizes = files
  .map((file) => ({ file, lines: readFileSync(file, 'utf8').split('\n').length - 1 }))
  .sort((a, b) => b.lines - a.lines);
const functions = files.flatMap(functionsOf).sort((a, b) => b.lines - a.lines);

const largestIn = (root: string) =>
  fileSizes
    .filter((f) => f.file.startsWith(root))
    .slice(0, 3)
    .map((f) => `${f.file} (${f.lines})`)
    .join(', ');
console.log(`files: ${files.length}; ${SIZED.map((root) => `largest in ${root}: ${largestIn(root)}`).join('; ')}`);
console.log(
  `longest functions: ${functions
    .slice(0, 5)
    .map((f) => `${f.file} ${f.name} (${f.lines})`)
    .join(', ')}`,
);
const bigFiles = fileSizes.filter((f) => SIZED.some((root) => f.file.startsWith(root)) && f.lines > maxLines);
const longFunctions = functions.filter((f) => f.lines > maxFunction);
for (const f of bigFiles) console.log(`over ${maxLines} lines: ${f.file} (${f.lines})`);
for (const f of longFunctions) console.log(`function over ${maxFunction} lines: ${f.file} ${f.name} (${f.lines})`);
process.exitCode = bigFiles.length + longFunctions.length > 0 ? 1 : 0;
