import { benchApi } from './api.js';
import { benchApprovals } from './approvals.js';
import { benchAwsShaped } from './aws-shaped.js';
import { benchInFlight } from './in-flight.js';
import { benchMemory } from './memory.js';
import { benchBundle, benchConsoleBundle } from './bundle.js';
import { benchConsole } from './console.js';
import { benchBudgets, benchCache } from './cost.js';
import { benchEvals } from './evals.js';
import { benchGateway } from './gateway.js';
import { benchBigAnswers, benchFlood } from './flood.js';
import { benchJobs } from './jobs.js';
import { benchKnowledge, benchKnowledgeIndex, benchKnowledgeIngestion } from './knowledge.js';
import { benchKnowledgeHybrid } from './knowledge-hybrid.js';
import { benchKnowledgeScale } from './knowledge-scale.js';
import { benchLoad } from './load.js';
import {
  benchPartitions,
  benchPartitionsCalls,
  benchPartitionsTimed,
  benchPartitionsIndexes,
  benchPartitionsItemTypes,
  benchPartitionsShared,
  benchPartitionsTop,
} from './partitions.js';
import { benchQuery } from './query.js';
import { benchQueryBlackBox } from './query-blackbox.js';
import { benchRounds } from './rounds.js';
import { benchRoutineCounts, benchRoutines, benchRoutineWebhooks, benchRoutineWrites } from './routines.js';
import { benchStream } from './stream.js';
import { benchToolLatency, benchToolRecall } from './tools.js';
import { benchToolSearchLoop } from './tools-loop.js';
import { printTable, type Row } from './report.js';

/**
 * `npm run bench [name…]`: runs the named benchmarks (all when none is named) and prints figures.
 * Benchmarks are not tests: they measure, and the budget in docs/performance.md (Budget) is
 * checked by reading them.
 */
process.env.AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED ??= 'true';

interface Benchmark {
  title: string;
  run: () => Promise<Row[]>;
  /** Further tables the same name prints. */
  also?: Benchmark[];
}

const benchmarks: Record<string, Benchmark> = {
  api: { title: 'API reads on the local runtime (HTTP on loopback, dynalite in memory)', run: benchApi },
  approvals: {
    title:
      'Deciding an approval on the local runtime (Accept: text/event-stream; zero-latency fake model streaming on loopback, MCP server in process): from sending the decision to the first text event of the resumed answer at the client, and to its done',
    run: benchApprovals,
  },
  'aws-shaped': {
    title:
      'The query as a user on AWS waits for it: the black-box query (npm start in its own process, server-everything over streamable HTTP, one tool call, two model calls) with DYNAMODB_ENDPOINT at dynalite (in memory) behind a latency proxy putting the store 5 ms away, and the fake model answering each call after 300 ms; next to the naive SDK loop (stores nothing) in the same run. Two ways of putting the store 5 ms away, alternating query by query: each call taking 5 ms with dynalite’s own time inside (DynamoDB’s latency holds its work, and it serves a round’s calls side by side: the goal’s setup), and 5 ms added before dynalite, which serves a round’s calls one by one (what the fake store adds). added: service minus naive (paired: the median of each pair’s difference); cpu_ms_per_query: user + system CPU of the service process per query, both rows (goal: added p50 <= 15 ms)',
    run: benchAwsShaped,
  },
  gateway: {
    title:
      "The MCP gateway (issue 48), AWS-shaped: npm start in its own process, the store 5 ms away (each call 5 ms, dynalite's time inside), the upstream tool server answering after 50 ms; a person signed in through the gateway's OAuth flow (the MCP SDK's client) calls the tool through the gateway, alternating with the same call made directly: what the gateway adds (paired), and the store calls made before the upstream saw the call (goals: <= 1 sequential store round before forwarding, added p50 <= 12 ms, p99 <= 30 ms); tools/list of a 300-tool workspace (goal: <= 12 tools)",
    run: benchGateway,
  },
  budgets: {
    title:
      'Budgets under parallel load on the local runtime (fake model): after cheap questions, 100 at once each costing about 100× the average, against an organisation budget of $0.50 (goal: no overshoot); the admission step (reserve in 2 budgets) alone, in process (goal: p99 <= 3 ms)',
    run: benchBudgets,
  },
  cache: {
    title:
      'Prompt cache over a conversation on the local runtime, against the fake Messages API in its prompt-cache mode (prefix hashes at breakpoints, 20-block look-back, 1 024-token minimum): system prompt ~2 000 tokens, 40 tools, 6 turns of one tool call each; tokens as the service answered them',
    run: benchCache,
  },
  bundle: {
    title:
      'Lambda bundles as deployed (size_kb: what a cold start loads, the entry and the chunks it imports; all_files_kb: with the chunks loaded on demand. Budget: API bundle ≤ 1 MB minified, module load ≤ 150 ms)',
    run: benchBundle,
    also: [
      {
        title:
          'Web console as built (web/build.ts; budget: first load ≤ 300 KB gzipped — index.html, the entry script, its static chunks and the stylesheet)',
        run: benchConsoleBundle,
      },
    ],
  },
  console: {
    title:
      'The web console in Chromium on loopback against npm start (its defaults: INFO logs, the store on disk): from the start of a navigation to the page shown with its data (heading, no loading line), in a new browser context (cold, empty cache) and the same one again (warm); bytes a cold load transferred (bodies and headers). Goals: p50 ≤ 400 ms cold, ≤ 150 ms warm; first load ≤ 150 KB; a 50-turn chat opened ≤ 300 ms warm; first streamed text on screen ≤ 50 ms after the model wrote it (gap_*)',
    run: benchConsole,
  },
  flood: {
    title:
      'Tenants that push back, against npm start with its defaults: one organisation floods with streaming queries it never reads (each calling a tool that never answers, timeout 600 s), while another lists its workspaces (goal: p99 within 2x of quiet)',
    run: benchFlood,
    also: [
      {
        title:
          'Tool answers too large to hold: 10 parallel queries whose tool answers 40 MB each, in a fresh npm start (peak RSS = VmHWM; goal under 400 MB)',
        run: benchBigAnswers,
      },
    ],
  },
  'knowledge-hybrid': {
    title:
      'Hybrid knowledge search (issue 49; docs/knowledge-bench.md, "Hybrid"): the BEIR set of BENCH_KNOWLEDGE_BEIR uploaded packed into npm start configured with an OpenAI-compatible embedding provider (bench/embeddings-server.ts: Universal Sentence Encoder lite run here, or BENCH_EMBEDDINGS_URL), each test query searched fused (RRF) and, on the same index, by full text alone',
    run: benchKnowledgeHybrid,
  },
  'knowledge-scale': {
    title:
      'A workspace of 10 000 documents (issue 49; docs/knowledge-bench.md, "Many documents"): each put in the index alone, as the ingestion job does (its shard loaded, changed and written, the manifest moved), on dynalite and blobs on disk, in process; four passages of about 400 tokens each, of the BEIR corpus\'s sentences (BENCH_KNOWLEDGE_BEIR). The time of a change as the workspace grows to 2 500 documents (BENCH_KNOWLEDGE_SCALE_DOCUMENTS), its shards; and a workspace of 10 000 documents built at once: every shard loaded cold (heap after GC: run with node --expose-gc) and the test queries searched',
    run: benchKnowledgeScale,
  },
  evals: {
    title:
      'An evaluation run on the local runtime (npm start in process, 4 job workers, zero-latency fake model, one MCP server on loopback): 50 cases of one tool call each; wall time (goal <= 60 s) and the overhead per case beyond its query',
    run: benchEvals,
  },
  jobs: { title: 'Local job runner throughput (ledger + counters on dynalite in memory)', run: benchJobs },
  knowledge: {
    title:
      "Knowledge documents (issue 49; docs/knowledge-bench.md): npm start in its own process, its store 5 ms away (each call 5 ms, dynalite's time inside), blobs on disk. A public BEIR set (BENCH_KNOWLEDGE_BEIR) uploaded through the API and each test query searched through GET …/knowledge/search: recall@5, recall@10, nDCG@10 (BEIR's definitions, graded; a document cut into passages counts once, at its best rank) next to the set's published BM25 nDCG@10 (goal: at least that, full text alone)",
    run: benchKnowledge,
    also: [
      {
        title:
          'Knowledge ingestion: the corpus one document per upload (each waited for, within a time budget; the whole corpus extrapolated from how the time per document grows with the index each job rewrites), packed 50 documents to a Markdown file when that is unworkable, and PDFs of text pages written by pdf-lib, each alone, from upload to ready',
        run: benchKnowledgeIngestion,
      },
      {
        title:
          "Knowledge search latency and indexes: through the API on the corpus workspace, and PassageIndex.query() on stored indexes loaded cold in a fresh process (started with --expose-gc: heap_mb and rss_mb are the growth over PassageIndex.fromBytes after a forced GC; load_ms its time; stored_kb the gzipped bytes), the corpus workspace's own and synthetic ones of 1 000 and 100 000 passages made of the corpus's sentences (build_s: PassageIndex.add, to_bytes_s: toBytes)",
        run: benchKnowledgeIndex,
      },
    ],
  },
  load: {
    title:
      'Load on the local runtime: 64 clients on loopback, 3 x 30 s by default (40% list, 30% detail, 30% query: zero-latency fake model, 1 MCP tool call; store, model and MCP server in a process of their own); memory of the service process alone, after a forced GC. Then each route alone for 10 s. cpu_ms_per_req: CPU time of the service process (all its threads) per request; req_per_cpu_s: requests per second of one core',
    run: benchLoad,
  },
  partitions: {
    title:
      'Write units and hot partitions (issue 35), black-box: npm start in its own process with DYNAMODB_ENDPOINT at dynalite (in memory) behind an accounting proxy that bills every write as DynamoDB on-demand would (the base item at 1 WCU per started KB of the larger of old and new item; each GSI entry put, deleted or updated at 1 WCU per started KB of its projected attributes + 100 bytes), zero-latency fake model. 3 organisations x 2 workspaces (system prompts of about 4 000 characters) x 4 conversations x 3 questions, all at once; then every conversation closed and its jobs run. Per question: over all 72 questions; a partition of one workspace per question of that workspace, of one organisation per question of that organisation. questions_per_s: what 1 000 WCU/s a partition allows. Goals: <= 12 write units per question; every workspace and organisation partition < 1 WCU per question of its scope; no partition shared by all tenants above 0.02',
    run: benchPartitions,
    also: [
      { title: 'The 15 partitions written most (WCU), with their WCU per question of their scope', run: benchPartitionsTop },
      {
        title:
          'The partitions shared by all tenants, by key pattern (shard numbers as <n>): partitions written, their WCU, the hottest and the mean one per question of all 72; questions_per_s: of the hottest',
        run: benchPartitionsShared,
      },
      {
        title: 'Write units per item type (partition key prefix, sort key prefix): base item and index entries',
        run: benchPartitionsItemTypes,
      },
      { title: 'Index entries written, per index', run: benchPartitionsIndexes },
      { title: 'Store calls the service made during the load, per operation (reads too)', run: benchPartitionsCalls },
      {
        title:
          'The same load with every conversation left to its timers (cold after 0.25 min, closed 0.05 min later, then its stats), as most conversations end: write units per question, in all and per item type',
        run: benchPartitionsTimed,
      },
    ],
  },
  'in-flight': {
    title:
      "How many model waits one process holds (the agent service on Fargate is this app on a Node server): npm start in the AWS-shaped setup (store 5 ms away, one MCP tool call, two model calls) in a CPU cgroup of one CPU (a 1 vCPU task) when the machine allows, the model answering each call after 2 s; for each level N, queries arriving evenly for 12 s at the rate that keeps N in flight. added_p50: over one query alone, once the process is full; cpu_ms_per_query: the service process; rss_peak: its resident memory at the wave's peak",
    run: benchInFlight,
  },
  memory: {
    title:
      'The agent function at 512, 1 024 and 1 769 MB: each size a CPU cgroup with the share of one CPU Lambda gives it (1 769 MB = 1 vCPU). cold_load: the agent bundle imported in a fresh Node process in the cgroup; query: the AWS-shaped query (store 5 ms away, model 300 ms a call) with npm start in the cgroup, added = minus the naive loop; cost per million questions of the function at list prices (arm64, $0.0000133334 per GB-s, $0.20 per million requests), for the measured query and for a question that waits 5 s for its model',
    run: benchMemory,
  },
  query: {
    title:
      'Query hot path on the local runtime (zero-latency fake model on loopback, MCP servers in process; overhead = total - model - tools)',
    run: benchQuery,
    also: [
      {
        title:
          'The query as a user runs it, black-box: npm start in its own process (INFO logs, the embedded store on disk), server-everything over streamable HTTP, zero-latency fake model; one tool call per query. Next to it, a naive SDK client doing the same (new MCP session, tool list, two model calls, one tool call, nothing stored). Targets: overhead p50 ≤ 8 ms, p99 ≤ 25 ms, ratio ≤ 0.8',
        run: benchQueryBlackBox,
      },
    ],
  },
  tools: {
    title:
      'Tool search on real tool lists (bench/data: 25 public MCP servers, 303 labelled questions): recall of search_tools on the raw questions, with the index and with a keyword baseline without stemming (goal: recall@5 >= 0.8)',
    run: benchToolRecall,
    also: [
      {
        title:
          'Tool search latency and index: 5 x 303 searches (limit 5) and 5 builds at each size (1 000 = the catalogue and its first 142 tools again under a second connection); definitions_tokens: what reading every definition costs, at about 3.5 characters a token (goal: search p99 <= 5 ms)',
        run: benchToolLatency,
      },
      {
        title:
          "Tool search in the agent loop: the catalogue as 25 MCP servers on loopback connected to one workspace, npm start in process, the fake Messages API (deferred loading as Anthropic's). Tokens the model reads (at about 3.5 characters each) on its first call with every tool sent and with search, and on the call after a search (averaged over the questions); recall@5: the labelled tool among those the search found; same_bytes: the tool definitions identical on every call",
        run: benchToolSearchLoop,
      },
    ],
  },
  rounds: {
    title:
      'Sequential store rounds per request, black-box: npm start in its own process with DYNAMODB_ENDPOINT at dynalite (in memory) behind a latency proxy, zero-latency fake model; each request timed with 0 ms and 6 ms added to every store call, alternately. rounds = (p50 at 6 ms - p50 at 0 ms) / 6 ms; held_ms: how long the proxy really held a delayed call on average, rounds_held the same difference divided by it; store_calls: the calls the proxy forwarded during the request (operations: per request, on average) (issue 34 goals: new conversation and follow-up <= 2, first text, list and detail <= 1)',
    run: benchRounds,
  },
  routines: {
    title:
      "Routines (issue 50; docs/routines-bench.md): npm start with its defaults in its own process (the local job runner, the organisations' query limits), its store 5 ms away (each call 5 ms, dynalite's time inside), the fake model answering each call after 300 ms. 1 000 routines of 10 organisations (100 each, the most allowed), their cron all naming the same minute: each run's delay from its scheduled time to made (queued), started (started_at) and finished (goal: started p99 <= 60 s)",
    run: benchRoutines,
    also: [
      {
        title:
          "The due minute: runs per routine (missed: none; twice: more than one), the model calls each routine's prompt made (asked twice: more than one), and how fast the runs started",
        run: benchRoutineCounts,
      },
      {
        title:
          "Webhook routines (200: 20 in each organisation, in place of 20 deleted scheduled ones): each delivery sent 4 times, the original and 3 redeliveries with one X-Delivery-Id (signed as docs/routines.md says), all 4 at once or one after another: the answers (one 202 and three 200 carrying one run id), the runs and model calls each delivery made, and from the first request to its run's start",
        run: benchRoutineWebhooks,
      },
      {
        title:
          "Store calls per run, counted by the latency proxy (DynamoDB write calls: PutItem, UpdateItem, DeleteItem, BatchWriteItem, TransactWriteItems; all_calls: reads and the benchmark's own polling too)",
        run: benchRoutineWrites,
      },
    ],
  },
  stream: {
    title:
      'Streamed query on the local runtime (Accept: text/event-stream; zero-latency fake model streaming on loopback): time to the first text event at the client minus the model’s own time to its first token (budget p50 ≤ 15 ms, p99 ≤ 40 ms)',
    run: benchStream,
  },
};

const wanted = process.argv.slice(2).filter((arg) => !arg.startsWith('-'));
const unknown = wanted.filter((name) => !(name in benchmarks));
if (unknown.length) {
  console.error(`unknown benchmark(s): ${unknown.join(', ')}; known: ${Object.keys(benchmarks).join(', ')}`);
  process.exit(2);
}
for (const name of wanted.length ? wanted : Object.keys(benchmarks)) {
  const benchmark = benchmarks[name];
  if (!benchmark) continue;
  console.log(`running ${name}…`);
  for (const table of [benchmark, ...(benchmark.also ?? [])]) printTable(table.title, await table.run());
}
