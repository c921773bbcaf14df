import { cruise, type IReporterOutput } from 'dependency-cruiser';

/*
 * No circle between domains (docs/architecture.md, "Layers"): the folders of `shared/` are read
 * as one node each (`shared/<folder>/…`, with `shared/deps.ts` its own), and the imports between
 * them must form no cycle. dpdm (`npm run circles`) finds circles between files; this finds the
 * ones a file-level check cannot see, where `a/x.ts → b/y.ts → a/z.ts`.
 *
 * Only imports that run count: a type-only import (`import type`, the `Deps` interface that names
 * every domain's port) is gone once compiled, so it orders neither loading nor bundling.
 *
 * `npm run layers` runs this; it exits 1 and names each circle's edges with their files.
 */

type Graph = Map<string, Map<string, string[]>>;

/** The domain of a module: its folder under `shared/`, or `shared/deps.ts` as `deps`. */
function domainOf(path: string): string | undefined {
  return /^shared\/([^/.]+)/.exec(path)?.[1];
}

async function domainGraph(): Promise<Graph> {
  const result: IReporterOutput = await cruise(['shared'], {
    doNotFollow: { path: 'node_modules' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
  });
  if (typeof result.output === 'string') throw new Error('dependency-cruiser gave text, not modules');
  const graph: Graph = new Map();
  for (const module of result.output.modules) {
    const from = domainOf(module.source);
    if (!from) continue;
    const edges = graph.get(from) ?? new Map<string, string[]>();
    graph.set(from, edges);
    for (const dependency of module.dependencies) {
      const to = domainOf(dependency.resolved);
      if (!to || to === from || dependency.dependencyTypes.includes('type-only')) continue;
      edges.set(to, [...(edges.get(to) ?? []), `${module.source} → ${dependency.resolved}`]);
    }
  }
  return graph;
}

/** The strongly connected components of more than one domain (Tarjan). */
function circlesOf(graph: Graph): string[][] {
  let next = 0;
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const circles: string[][] = [];
  const visit = (node: string) => {
    index.set(node, next);
    low.set(node, next);
    next += 1;
    stack.push(node);
    onStack.add(node);
    for (const to of graph.get(node)?.keys() ?? []) {
      if (!index.has(to)) {
        visit(to);
        low.set(node, Math.min(low.get(node) ?? 0, low.get(to) ?? 0));
      } else if (onStack.has(to)) low.set(node, Math.min(low.get(node) ?? 0, index.get(to) ?? 0));
    }
    if (low.get(node) !== index.get(node)) return;
    const component: string[] = [];
    let member: string | undefined;
    do {
      member = stack.pop();
      if (member === undefined) break;
      onStack.delete(member);
      component.push(member);
    } while (member !== node);
    if (component.length > 1) circles.push(component);
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return circles;
}

const graph = await domainGraph();
const circles = circlesOf(graph);
if (circles.length === 0) {
  console.log(`✔ no circle between domains (${graph.size} folders of shared/, imports that run)`);
} else {
  for (const circle of circles) {
    const members = new Set(circle);
    console.error(`✘ a circle between domains: ${circle.join(', ')}`);
    for (const from of circle) {
      for (const [to, files] of graph.get(from) ?? []) {
        if (members.has(to)) console.error(`  ${from} → ${to}: ${files.join('; ')}`);
      }
    }
  }
  console.error('Move what composes two domains above both (shared/wiring, a *-admin folder), or what both need below them.');
  process.exit(1);
}
