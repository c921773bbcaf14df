import { startLocalRuntime } from '../bin/local-runtime.js';
import { parseConfig } from '../shared/platform/config.js';
import { startFakeModel, textReply, toolUseReply, type ModelRequestRecord } from '../test/support/fake-model.js';
import { standardTools, startHttpMcpServer } from '../test/support/mcp-servers.js';
import { signUpOver } from '../test/support/signup.js';
import { apiOf, benchEnv, percentile, QUIET_LOGGER, type Row } from './report.js';

/**
 * An evaluation run on the local runtime (`npm start` in process, the job runner's 4 workers, the
 * zero-latency fake model, one MCP server on loopback): 50 cases, each one tool call then the
 * answer, scored on a tool and a text. Wall time from starting the run to its end, and per case;
 * the overhead per case beyond the query itself: the wall time per case less a plain POST /query
 * of the same question (asked 20 times first, its p50). The fake model answers at once, so the
 * work is the process's CPU: its workers share one core, and the wall time per case is what a case
 * costs the process.
 */

const CASES = 50;

const answeringTool = (request: ModelRequestRecord) =>
  JSON.stringify(request.body.messages.at(-1)?.content ?? '').includes('"tool_result"');

export async function benchEvals(): Promise<Row[]> {
  const model = await startFakeModel();
  model.handle((request) =>
    answeringTool(request) ? textReply('Found it in the documentation.') : toolUseReply([{ name: 'search_docs', input: { query: 'vpn' } }]),
  );
  const server = await startHttpMcpServer({ name: 'docs', tools: standardTools() });
  const runtime = await startLocalRuntime(parseConfig(benchEnv(model.url), 'local'), { logger: QUIET_LOGGER });
  try {
    const cookie = await signUpOver(runtime.url, 'evals@example.com');
    const { call } = apiOf(runtime.url, cookie);
    const workspace = String((await call('POST', '/api/workspaces', { name: 'Evaluated' })).id);
    await call('POST', '/api/connectors/mcp', { workspace_id: workspace, name: 'docs', transport: 'http', url: server.url });
    // The plain query, for comparison (warm).
    const queryMs: number[] = [];
    for (let index = 0; index < 20; index += 1) {
      const started = performance.now();
      await call('POST', `/api/workspaces/${workspace}/query`, { query: `How do I set up the VPN (${index})?` });
      queryMs.push(performance.now() - started);
    }
    const cases = Array.from({ length: CASES }, (_, index) => ({
      question: `How do I set up the VPN (${index})?`,
      expect: { tools: ['search_docs'], contains: ['documentation'] },
    }));
    const evaluation = await call('POST', `/api/workspaces/${workspace}/evals`, { name: 'Fifty', cases });
    const started = performance.now();
    const queued = await call('POST', `/api/workspaces/${workspace}/evals/${evaluation.eval.id}/runs`, {});
    const path = `/api/workspaces/${workspace}/evals/${evaluation.eval.id}/runs/${queued.run.id}`;
    let run = (await call('GET', path)).run;
    while (run.status !== 'done') {
      await new Promise((resolve) => setTimeout(resolve, 20));
      run = (await call('GET', path)).run;
    }
    const wallMs = performance.now() - started;
    const caseMs = (run.results as { duration_ms: number }[]).map((result) => result.duration_ms);
    const plainMs = percentile(queryMs, 50);
    const perCase = wallMs / CASES;
    const round = (ms: number) => Math.round(ms * 10) / 10;
    return [
      {
        what: `run of ${CASES} cases (queued as jobs, the runner's workers in one process)`,
        wall_s: Math.round(wallMs / 10) / 100,
        passed: `${run.passed}/${CASES}`,
        wall_ms_per_case: round(perCase),
        case_query_p50_ms: round(percentile(caseMs, 50)),
        plain_query_p50_ms: round(plainMs),
        overhead_ms_per_case: round(perCase - plainMs),
      },
    ];
  } finally {
    await runtime.stop();
    await server.stop();
    await model.stop();
  }
}
