/**
 * docs/data-model.md held to the entity files (issue 46, item 2). `tsx scripts/data-model.ts`
 * rewrites the table of named access patterns between `<!-- access-patterns:start -->` and
 * `<!-- access-patterns:end -->` (under "Access patterns"); with `--check` (in `npm run lint`) it
 * writes nothing and fails (exit 1) when that table is stale. Either way it fails when the keys the
 * doc shows and the keys the code builds part, or when an entity file breaks the rules below.
 *
 * The entity files are `entities.ts` and `*-entities.ts` anywhere under `shared/`, found by
 * name, so a new one joins by itself. Each is read the way that is surest for what is read:
 * - **Structure, by the TypeScript compiler API** (parsing only: no type checking, which would take
 *   seconds over dynamodb-toolbox's types). A file's "Access patterns" section runs from its line
 *   `// --- Access patterns ---` to the next `// --- ` line or the end of the file; each export
 *   there is a pattern, and needs a doc comment, whose first sentence the table shows.
 * - **What a pattern reads, by calling it**: its module is imported (tsx) and the function called
 *   with a placeholder `<name>` for each parameter (and once without its optional ones, when they
 *   change the read). The key builders then produce the stored shape themselves (prefixes, shards,
 *   constants, an index), which no reading of their source would follow as surely. A query (`pk`,
 *   `index`) reads that index (`table` when none); keys (`pk` and a string `sk`) are read by key; a
 *   condition with `begins_with` on `pk` is a migration's scan. Every other exported function of
 *   the file is called the same way, and one that answers a query is reported: every query builder
 *   lives in its file's section. (Entity files build keys and expressions only: calling them has no
 *   effect, and one that throws on a placeholder is simply not a query builder.)
 * - **Partition prefixes, statically**: every expression in a partition key's place (`pk:` of an
 *   object, the partition argument of `indexEntry`, `shardKey` and `shardKeys`, a condition's
 *   `{ attr: 'pk', beginsWith }`) is evaluated through string and template literals, constants and
 *   the functions they call (in the file, an enclosing scope, or a file it imports), up to its first
 *   part that is not a constant: `WS#${orgId}#${workspaceId}` builds `WS#`. This reaches the keys
 *   that no exported function answers whole (index entries, keys inside writes). A parameter passed
 *   on whole (`pk: key.pk`) builds none; anything else that cannot be evaluated is reported. Each
 *   prefix must begin a key shown in the "Entities" table's pk column or in the "Indexes" table, and
 *   each pk the Entities table shows must begin with a prefix an entity file builds: a key added,
 *   removed or renamed on one side only fails the check.
 */
import { existsSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import ts from 'typescript';

const DOC = 'docs/data-model.md';
const START = '<!-- access-patterns:start -->';
const END = '<!-- access-patterns:end -->';

const problems: string[] = [];

function entityFiles(dir = 'shared'): string[] {
  return readdirSync(dir)
    .flatMap((name) => {
      const path = join(dir, name);
      if (statSync(path).isDirectory()) return entityFiles(path);
      return name === 'entities.ts' || name.endsWith('-entities.ts') ? [path] : [];
    })
    .sort();
}

const files = entityFiles();

const sources = new Map<string, ts.SourceFile>();
function sourceOf(file: string): ts.SourceFile {
  const path = resolve(file);
  const known = sources.get(path);
  if (known) return known;
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  sources.set(path, source);
  return source;
}
function fail(message: string): never {
  throw new Error(message);
}
const lineOf = (node: ts.Node) => node.getSourceFile().getLineAndCharacterOfPosition(node.getStart()).line + 1;

// --- The sections and their patterns ---

type FunctionNode = ts.FunctionDeclaration | ts.ArrowFunction | ts.FunctionExpression;

interface Exported {
  name: string;
  node: ts.Node;
  /** The function it is, if it is one. */
  fn?: FunctionNode;
  inSection: boolean;
}

function sectionOf(text: string): [number, number] | undefined {
  const start = /^\/\/ --- Access patterns ---[ \t]*$/m.exec(text);
  if (!start) return undefined;
  const next = /^\/\/ --- /m.exec(text.slice(start.index + start[0].length));
  return [start.index, next ? start.index + start[0].length + next.index : text.length];
}

const isExported = (node: ts.Node) =>
  ts.canHaveModifiers(node) && (ts.getModifiers(node) ?? []).some((m) => m.kind === ts.SyntaxKind.ExportKeyword);

function exportsOf(source: ts.SourceFile): Exported[] {
  const section = sectionOf(source.text);
  const inSection = (node: ts.Node) => !!section && node.getStart() >= section[0] && node.getStart() < section[1];
  return source.statements.filter(isExported).flatMap((statement): Exported[] => {
    if (ts.isFunctionDeclaration(statement) && statement.name)
      return [{ name: statement.name.text, node: statement, fn: statement, inSection: inSection(statement) }];
    if (!ts.isVariableStatement(statement)) return [];
    return statement.declarationList.declarations.flatMap((declaration) => {
      if (!ts.isIdentifier(declaration.name)) return [];
      const init = declaration.initializer;
      const fn = init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
      return [{ name: declaration.name.text, node: declaration, fn, inSection: inSection(statement) }];
    });
  });
}

function firstSentence(node: ts.Node): string | undefined {
  const docs = ts.getJSDocCommentsAndTags(node).filter(ts.isJSDoc);
  const text = docs.map((doc) => ts.getTextOfJSDocComment(doc.comment) ?? '').join(' ');
  const flat = text.replace(/\s+/g, ' ').trim();
  if (!flat) return undefined;
  return /^(.+?[.!?])(?=\s|$)/.exec(flat)?.[1] ?? flat;
}

// --- What a pattern reads, by calling it ---

interface Read {
  kind: 'query' | 'keys' | 'scan';
  index: string;
  pk: string;
  sk: string;
}

const code = (text: string) => `\`${text}\``;

/**
 * Partition keys, shards folded: `X#0`…`X#7` as `X#<0-7>`; a sharded list's `X`, `X#1`…`X#3`
 * (shard 0 is the key of before the shards) as `X`, `X#<1-3>`.
 */
function partitions(pks: string[], what: string): string {
  const [first, ...rest] = pks;
  if (!first || !rest.length) return code(first ?? '');
  const numbered = (list: string[], stem: string, from: number) => list.every((pk, i) => pk === `${stem}#${from + i}`);
  const count = ` (${pks.length} ${what})`;
  const stem = first.replace(/#0$/, '');
  if (numbered(pks, stem, 0)) return `${code(`${stem}#<0-${pks.length - 1}>`)}${count}`;
  if (numbered(rest, first, 1)) return `${code(first)}, ${code(`${first}#<1-${rest.length}>`)}${count}`;
  return `${pks.map(code).join(', ')}${count}`;
}

type Condition = { beginsWith: string } | { between: [string, string] } | { gte: string } | { lte: string };

function sortKeyOf(sk: unknown): string {
  if (sk === undefined) return '–';
  if (typeof sk === 'string') return code(sk);
  const condition = sk as Condition;
  if ('beginsWith' in condition) return `begins with ${code(condition.beginsWith)}`;
  if ('between' in condition) return `${code(condition.between[0])} to ${code(condition.between[1])}`;
  if ('gte' in condition) return `from ${code(condition.gte)}`;
  return `up to ${code(condition.lte)}`;
}

/** The prefixes a scan's condition asks of `attribute` (`begins_with`). */
function scanPrefixes(scan: Record<string, unknown>, attribute: 'pk' | 'sk'): string[] {
  const names = (scan.names ?? {}) as Record<string, string>;
  const values = (scan.values ?? {}) as Record<string, unknown>;
  return [...String(scan.condition).matchAll(/begins_with\((#\w+), (:\w+)\)/g)]
    .filter(([, name]) => name && names[name] === attribute)
    .map(([, , value]) => String(value && values[value]));
}

function readOf(result: unknown): Read | string {
  const items = (Array.isArray(result) ? result : [result]) as Record<string, unknown>[];
  if (!items.length) return 'answers an empty list';
  const sortKeys = () => [...new Set(items.map((item) => sortKeyOf(item.sk)))].join(', ');
  const pks = items.map((item) => String(item?.pk));
  if (items.every((item) => typeof item?.pk === 'string' && typeof item.sk === 'string')) {
    const index = `\`table\`, by key${items.length > 1 ? ' (BatchGetItem)' : ''}`;
    return { kind: 'keys', index, pk: partitions(pks, 'keys'), sk: sortKeys() };
  }
  if (items.every((item) => typeof item?.pk === 'string')) {
    const indexes = [...new Set(items.map((item) => String(item.index ?? 'table')))];
    if (indexes.length > 1) return `reads several indexes (${indexes.join(', ')})`;
    return { kind: 'query', index: code(indexes[0] ?? 'table'), pk: partitions(pks, 'partitions, a Query each'), sk: sortKeys() };
  }
  const [scan] = items;
  const pk = scan && items.length === 1 && typeof scan.condition === 'string' ? scanPrefixes(scan, 'pk') : [];
  if (!scan || !pk.length) return 'answers neither a query, keys, nor a scan condition on `pk`';
  const sk = scanPrefixes(scan, 'sk');
  const beginning = (prefixes: string[]) => prefixes.map((prefix) => `begins with ${code(prefix)}`).join(' or ');
  return { kind: 'scan', index: 'scan', pk: beginning(pk), sk: sk.length ? beginning(sk) : '–' };
}

interface Pattern {
  file: string;
  name: string;
  what: string;
  index: string;
  pk: string;
  sk: string;
}

/** The calls that show what `fn` reads: every parameter a placeholder, and (when some are optional) without those. */
function placeholderCalls(fn: FunctionNode): { label: string; args: string[] }[] {
  const params = fn.parameters.map((p) => ({
    name: ts.isIdentifier(p.name) ? p.name.text : 'arg',
    optional: !!(p.questionToken || p.initializer),
  }));
  const all = params.map((p) => `<${p.name}>`);
  const required = params.findIndex((p) => p.optional);
  if (required < 0) return [{ label: '', args: all }];
  const label = `with ${params
    .slice(required)
    .map((p) => code(p.name))
    .join(', ')}`;
  return [
    { label: '', args: all.slice(0, required) },
    { label, args: all },
  ];
}

/** What `fn(...args)` reads, or why that is not known. */
function call(fn: (...args: string[]) => unknown, args: string[]): Read | string {
  try {
    return readOf(fn(...args));
  } catch (error) {
    return `throws when called with placeholders (${String(error)})`;
  }
}

const modules = new Map<string, Record<string, unknown>>();
/** The module of an entity file, imported once (one that fails to import is reported, and has no exports). */
async function moduleOf(file: string): Promise<Record<string, unknown>> {
  const known = modules.get(file);
  if (known) return known;
  let module: Record<string, unknown> = {};
  try {
    module = (await import(pathToFileURL(resolve(file)).href)) as Record<string, unknown>;
  } catch (error) {
    problems.push(`${file}: cannot be imported (${String(error)})`);
  }
  modules.set(file, module);
  return module;
}

async function patternOf(file: string, exported: Exported): Promise<Pattern | undefined> {
  const where = `${file}:${lineOf(exported.node)} ${exported.name}`;
  const what = firstSentence(exported.node);
  if (!what) problems.push(`${where}: an access pattern needs a doc comment (its first sentence is the doc's description)`);
  const callable = (await moduleOf(file))[exported.name];
  if (!exported.fn || typeof callable !== 'function')
    return void problems.push(`${where}: an access pattern is a function (called with placeholders for its keys)`);
  const reads: (Read & { label: string })[] = [];
  for (const { label, args } of placeholderCalls(exported.fn)) {
    const read = call(callable as (...args: string[]) => unknown, args);
    if (typeof read === 'string') return void problems.push(`${where}: ${read}`);
    if (!reads.some((seen) => seen.index === read.index && seen.pk === read.pk && seen.sk === read.sk)) reads.push({ ...read, label });
  }
  const cell = (part: 'index' | 'pk' | 'sk') =>
    new Set(reads.map((read) => read[part])).size === 1
      ? (reads[0]?.[part] ?? '')
      : reads.map((read) => (read.label ? `${read.label}: ${read[part]}` : read[part])).join('; ');
  return { file, name: exported.name, what: what ?? '', index: cell('index'), pk: cell('pk'), sk: cell('sk') };
}

/** Whether an export outside the section answers a query when called with placeholders (keys, conditions and writes do not). */
async function buildsQuery(file: string, exported: Exported): Promise<boolean> {
  const callable = (await moduleOf(file))[exported.name];
  if (!exported.fn || typeof callable !== 'function') return false;
  return placeholderCalls(exported.fn).some(({ args }) => {
    const read = call(callable as (...args: string[]) => unknown, args);
    return typeof read !== 'string' && read.kind === 'query';
  });
}

async function patterns(): Promise<Pattern[]> {
  const found: Pattern[] = [];
  for (const file of files) {
    for (const exported of exportsOf(sourceOf(file))) {
      if (exported.inSection) {
        const pattern = await patternOf(file, exported);
        if (pattern) found.push(pattern);
      } else if (await buildsQuery(file, exported)) {
        problems.push(
          `${file}:${lineOf(exported.node)} ${exported.name} builds a query outside the file's "// --- Access patterns ---" section`,
        );
      }
    }
  }
  return found;
}

// --- Partition prefixes, statically ---

/** A string's constant beginning, whether a value follows it, and (when it begins with one) whether that value is a parameter's. */
interface Shape {
  text: string;
  open: boolean;
  parameter?: boolean;
}

const constant = (text: string): Shape => ({ text, open: false });
const value = (parameter: boolean): Shape => ({ text: '', open: true, parameter });
const concat = (a: Shape, b: Shape): Shape => (a.open ? a : { text: a.text + b.text, open: b.open, parameter: b.parameter });
const product = (as: Shape[], bs: Shape[]) => as.flatMap((a) => bs.map((b) => concat(a, b)));

type Bindings = Map<ts.ParameterDeclaration, Shape[]>;
type Declaration = ts.ParameterDeclaration | ts.VariableDeclaration | ts.FunctionDeclaration;

const bindsName = (name: ts.BindingName, wanted: string): boolean =>
  ts.isIdentifier(name)
    ? name.text === wanted
    : name.elements.some((element) => !ts.isOmittedExpression(element) && bindsName(element.name, wanted));

/** The function or constant named `name` among `statements`. */
function declaredIn(statements: readonly ts.Statement[], name: string): Declaration | undefined {
  for (const statement of statements) {
    if (ts.isFunctionDeclaration(statement) && statement.name?.text === name) return statement;
    if (ts.isVariableStatement(statement)) {
      const found = statement.declarationList.declarations.find((declaration) => bindsName(declaration.name, name));
      if (found) return found;
    }
  }
  return undefined;
}

/** What `name` refers to where `at` uses it: a parameter or a declaration of an enclosing scope, of the file, or of a file it imports. */
function declarationOf(name: string, at: ts.Node): Declaration | undefined {
  for (let node = at.parent; node; node = node.parent) {
    if (ts.isFunctionLike(node)) {
      const parameter = node.parameters.find((p) => bindsName(p.name, name));
      if (parameter) return parameter;
    }
    if (ts.isBlock(node) || ts.isSourceFile(node)) {
      const found = declaredIn(node.statements, name);
      if (found) return found;
    }
  }
  const source = at.getSourceFile();
  for (const statement of source.statements) {
    const bindings = ts.isImportDeclaration(statement) ? statement.importClause?.namedBindings : undefined;
    const imported = bindings && ts.isNamedImports(bindings) ? bindings.elements.find((element) => element.name.text === name) : undefined;
    const specifier = (statement as ts.ImportDeclaration).moduleSpecifier;
    if (!imported || !ts.isStringLiteral(specifier) || !specifier.text.startsWith('.')) continue;
    const file = resolve(dirname(source.fileName), specifier.text.replace(/\.js$/, '.ts'));
    return exportedFrom(file, (imported.propertyName ?? imported.name).text);
  }
  return undefined;
}

/** The declaration `file` exports as `name`: its own, or one a domain's public file re-exports (`export * from './x.js'`). */
function exportedFrom(file: string, name: string, seen = new Set<string>()): Declaration | undefined {
  if (!existsSync(file) || seen.has(file)) return undefined;
  seen.add(file);
  const statements = sourceOf(file).statements;
  const own = declaredIn(statements, name);
  if (own) return own;
  for (const statement of statements) {
    const specifier = ts.isExportDeclaration(statement) && !statement.exportClause ? statement.moduleSpecifier : undefined;
    if (!specifier || !ts.isStringLiteral(specifier)) continue;
    const found = exportedFrom(resolve(dirname(file), specifier.text.replace(/\.js$/, '.ts')), name, seen);
    if (found) return found;
  }
  return undefined;
}

function functionOf(declaration: Declaration | undefined): FunctionNode | undefined {
  if (!declaration) return undefined;
  if (ts.isFunctionDeclaration(declaration)) return declaration;
  const init = ts.isVariableDeclaration(declaration) ? declaration.initializer : undefined;
  return init && (ts.isArrowFunction(init) || ts.isFunctionExpression(init)) ? init : undefined;
}

function returned(fn: FunctionNode): ts.Expression[] {
  if (!fn.body) return [];
  if (!ts.isBlock(fn.body)) return [fn.body];
  const found: ts.Expression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isReturnStatement(node) && node.expression) found.push(node.expression);
    else if (!ts.isFunctionLike(node)) ts.forEachChild(node, visit);
  };
  ts.forEachChild(fn.body, visit);
  return found;
}

function identifierShapes(node: ts.Identifier, bindings: Bindings, depth: number): Shape[] {
  const declaration = declarationOf(node.text, node);
  if (!declaration) return [value(false)];
  if (ts.isParameter(declaration)) return (ts.isIdentifier(declaration.name) && bindings.get(declaration)) || [value(true)];
  const isConst =
    ts.isVariableDeclaration(declaration) && ts.isIdentifier(declaration.name) && declaration.parent.flags & ts.NodeFlags.Const;
  if (isConst && declaration.initializer) return shapesOf(declaration.initializer, bindings, depth + 1);
  return [value(false)];
}

function callShapes(node: ts.CallExpression, bindings: Bindings, depth: number): Shape[] {
  if (ts.isPropertyAccessExpression(node.expression)) {
    // A method of a value (`email.toLowerCase()`): a value, a parameter's if its receiver is one.
    const receiver = shapesOf(node.expression.expression, bindings, depth + 1);
    return [value(receiver.every((shape) => shape.text === '' && shape.parameter))];
  }
  const fn = ts.isIdentifier(node.expression) ? functionOf(declarationOf(node.expression.text, node.expression)) : undefined;
  if (!fn) return [value(false)];
  const inner: Bindings = new Map();
  fn.parameters.forEach((parameter, i) => {
    const argument = node.arguments[i];
    if (argument) inner.set(parameter, shapesOf(argument, bindings, depth + 1));
  });
  return returned(fn).flatMap((expression) => shapesOf(expression, inner, depth + 1));
}

function shapesOf(node: ts.Expression, bindings: Bindings, depth = 0): Shape[] {
  if (depth > 16) return [value(false)];
  if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return [constant(node.text)];
  if (ts.isTemplateExpression(node)) {
    return node.templateSpans.reduce(
      (shapes, span) => product(product(shapes, shapesOf(span.expression, bindings, depth + 1)), [constant(span.literal.text)]),
      [constant(node.head.text)],
    );
  }
  if (ts.isParenthesizedExpression(node) || ts.isAsExpression(node) || ts.isSatisfiesExpression(node) || ts.isNonNullExpression(node))
    return shapesOf(node.expression, bindings, depth + 1);
  if (ts.isConditionalExpression(node))
    return [...shapesOf(node.whenTrue, bindings, depth + 1), ...shapesOf(node.whenFalse, bindings, depth + 1)];
  if (ts.isBinaryExpression(node) && node.operatorToken.kind === ts.SyntaxKind.PlusToken)
    return product(shapesOf(node.left, bindings, depth + 1), shapesOf(node.right, bindings, depth + 1));
  if (ts.isIdentifier(node)) return identifierShapes(node, bindings, depth);
  if (ts.isCallExpression(node)) return callShapes(node, bindings, depth);
  if (ts.isPropertyAccessExpression(node)) return [value(shapesOf(node.expression, bindings, depth + 1).every((shape) => shape.parameter))];
  return [value(false)];
}

const propertyName = (name: ts.PropertyName) => (ts.isIdentifier(name) || ts.isStringLiteral(name) ? name.text : undefined);

/** The expressions of a file that stand where a partition key goes. */
function partitionPlaces(source: ts.SourceFile): ts.Expression[] {
  const places: ts.Expression[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isPropertyAssignment(node) && propertyName(node.name) === 'pk') places.push(node.initializer);
    if (ts.isShorthandPropertyAssignment(node) && node.name.text === 'pk') places.push(node.name);
    if (ts.isCallExpression(node) && ts.isIdentifier(node.expression)) {
      const argument = { indexEntry: 1, shardKey: 0, shardKeys: 0 }[node.expression.text];
      const place = argument === undefined ? undefined : node.arguments[argument];
      if (place) places.push(place);
    }
    if (ts.isObjectLiteralExpression(node)) {
      const properties = new Map(node.properties.filter(ts.isPropertyAssignment).map((p) => [propertyName(p.name), p.initializer]));
      const attr = properties.get('attr');
      const beginsWith = properties.get('beginsWith');
      if (attr && ts.isStringLiteral(attr) && attr.text === 'pk' && beginsWith) places.push(beginsWith);
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return places;
}

interface Built {
  prefix: string;
  where: string;
}

function builtPrefixes(): Built[] {
  return files.flatMap((file) =>
    partitionPlaces(sourceOf(file)).flatMap((place) => {
      const where = `${file}:${lineOf(place)}`;
      const shapes = shapesOf(place, new Map());
      return shapes.flatMap((shape) => {
        if (shape.text) return [{ prefix: shape.text, where }];
        if (!shape.parameter) problems.push(`${where}: a partition key this script cannot evaluate (${place.getText().slice(0, 60)})`);
        return [];
      });
    }),
  );
}

// --- The doc ---

const cellsOf = (line: string) =>
  line
    .trim()
    .replace(/^\||\|$/g, '')
    .split(/(?<!\\)\|/)
    .map((cell) => cell.trim());

/** The rows of the first table under `## heading` (without its header). */
function tableUnder(doc: string, heading: string): string[][] {
  const lines = doc.split('\n');
  const start = lines.indexOf(`## ${heading}`);
  if (start < 0) fail(`${DOC}: no "## ${heading}"`);
  const rows: string[][] = [];
  for (const line of lines.slice(start + 1)) {
    if (line.startsWith('## ')) break;
    if (line.startsWith('|')) rows.push(cellsOf(line));
    else if (rows.length) break;
  }
  return rows.slice(2);
}

/** The constant beginnings of the keys a cell shows (`ORG#<orgId>` begins `ORG#`). */
const keyHeads = (cell: string) =>
  [...cell.matchAll(/`([^`]+)`/g)].map((match) => (match[1] ?? '').split(/[<…]/)[0] ?? '').filter((head) => /^[A-Z]/.test(head));

/** Whether the key shown as `head` begins with `prefix`, a whole segment of it. */
const begins = (head: string, prefix: string) => head === prefix || (head.startsWith(prefix) && /[#:]$/.test(prefix));

function checkPrefixes(doc: string, built: Built[]) {
  const entities = tableUnder(doc, 'Entities').map((row) => ({ entity: row[0] ?? '', heads: keyHeads(row[1] ?? '') }));
  const shown = [...entities.flatMap((row) => row.heads), ...tableUnder(doc, 'Indexes').flatMap((row) => row.flatMap(keyHeads))];
  const prefixes = new Map<string, string[]>();
  for (const { prefix, where } of built) prefixes.set(prefix, [...(prefixes.get(prefix) ?? []), where]);
  for (const [prefix, where] of prefixes) {
    if (!shown.some((head) => begins(head, prefix)))
      problems.push(`${where[0]}: partition prefix ${prefix} is in neither the Entities table's pk column nor the Indexes table of ${DOC}`);
  }
  for (const { entity, heads } of entities) {
    for (const head of heads) {
      if (![...prefixes.keys()].some((prefix) => begins(head, prefix)))
        problems.push(`${DOC}, Entities, "${entity.slice(0, 60)}": pk ${head}… is built by no entity file`);
    }
  }
  return { built: prefixes.size, shown: new Set(entities.flatMap((row) => row.heads)).size };
}

const inCell = (text: string) => text.replaceAll('|', '\\|');

function sectionText(found: Pattern[]): string {
  const rows = found.map((p) => `| \`${p.file}\` | \`${p.name}\` | ${p.index} | ${inCell(p.pk)} | ${inCell(p.sk)} | ${inCell(p.what)} |`);
  return [
    START,
    '### Named access patterns, by entity file',
    '',
    'Each entity file names the reads of its items in its "Access patterns" section (`// --- Access patterns ---`). This table is',
    'generated from those sections by `npm run data-model` (`scripts/data-model.ts`), which calls each pattern with placeholders',
    "(`<orgId>`…) for the keys it reads: an index, `table` (a Query of the table, or reads by key), or `scan` (a migration's",
    'Scan, filtered on the partition key). `npm run lint` runs `npm run data-model -- --check`, which fails when this table is',
    'stale, when an entity file builds a query outside its section, or when the partition keys the entity files build and',
    'those of the Entities and Indexes tables above part (a prefix built that neither shows, or an Entities pk built by none).',
    '',
    '| entity file | pattern | index | partition key | sort key | reads |',
    '|---|---|---|---|---|---|',
    ...rows,
    END,
  ].join('\n');
}

function withSection(doc: string, section: string): string {
  const start = doc.indexOf(START);
  const end = doc.indexOf(END);
  if (start >= 0 && end > start) return doc.slice(0, start) + section + doc.slice(end + END.length);
  const heading = '## Access patterns\n\n';
  const at = doc.indexOf(heading);
  if (at < 0) fail(`${DOC}: no "## Access patterns" to put the generated table under`);
  return `${doc.slice(0, at + heading.length)}${section}\n\n${doc.slice(at + heading.length)}`;
}

const check = process.argv.includes('--check');
const found = await patterns();
const doc = readFileSync(DOC, 'utf8');
const counts = checkPrefixes(doc, builtPrefixes());
const updated = withSection(doc, sectionText(found));
if (updated !== doc) {
  if (check) problems.push(`${DOC}: the table of named access patterns is stale: run \`npm run data-model\``);
  else writeFileSync(DOC, updated);
}
const summary = `${files.length} entity files, ${found.length} access patterns, ${counts.built} partition prefixes built, ${counts.shown} shown in the Entities table`;
if (problems.length) {
  console.error(`data model: ${DOC} and the entity files part (${summary}):`);
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`data model: ${DOC} matches the entity files (${summary})${!check && updated !== doc ? '; table rewritten' : ''}`);
