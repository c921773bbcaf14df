import { LIMITS_OUT_OF_THE_WAY } from './service-client.js';
export type Row = Record<string, string | number>;

export function percentile(samples: number[], p: number): number {
  const sorted = [...samples].sort((a, b) => a - b);
  const index = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return Math.round((sorted[index] ?? 0) * 100) / 100;
}

/** Prints rows as an aligned text table. */
/** The `p`th percentile of one field of the samples. */
export function percentileOf<T>(samples: T[], field: (sample: T) => number, p: number): number {
  return percentile(samples.map(field), p);
}

export function printTable(title: string, rows: Row[]): void {
  if (rows.length === 0) return;
  // Every row's columns, in the order they first appear (a row may add its own, e.g. a summary row).
  const columns = [...new Set(rows.flatMap((row) => Object.keys(row)))];
  const cell = (value: string | number | undefined) => (typeof value === 'number' ? String(Math.round(value * 100) / 100) : (value ?? ''));
  const widths = columns.map((column) => Math.max(column.length, ...rows.map((row) => cell(row[column]).length)));
  const line = (values: string[]) => values.map((value, index) => value.padEnd(widths[index] ?? 0)).join('  ');
  console.log(`\n${title}`);
  console.log(line(columns));
  console.log(line(widths.map((width) => '-'.repeat(width))));
  for (const row of rows) console.log(line(columns.map((column) => cell(row[column]))));
}

/** A logger that drops everything: benchmarks print their own tables. */
export const QUIET_LOGGER = { debug() {}, info() {}, warn() {}, error() {} };

/**
 * The local runtime's configuration for a benchmark: in memory, a free port, the fake model, the
 * background work (lifecycle sweep, chat bridge poll) kept out of the measurements, and the
 * organisation's query limits (300 a minute, 20 at once) raised: the load is on the service, not its limiters.
 */
export function benchEnv(modelUrl: string, extra: Record<string, string> = {}): Record<string, string> {
  return {
    DATA_DIR: 'memory',
    PORT: '0',
    LOG_LEVEL: 'SILENT',
    ANTHROPIC_BASE_URL: modelUrl,
    ANTHROPIC_API_KEY: 'bench',
    SWEEP_INTERVAL_MS: '3600000',
    CHAT_BRIDGE_POLL_MS: '600000',
    ...LIMITS_OUT_OF_THE_WAY,
    // 64 clients of one organisation: the in-flight limits would refuse some of them (429).
    MAX_QUERIES_IN_FLIGHT_PER_ORG: '1000',
    MAX_QUERIES_IN_FLIGHT: '1000',
    // As `npm start` runs: the benchmark's MCP servers are on loopback.
    MCP_ALLOW_PRIVATE_URLS: 'true',
    ...extra,
  };
}

/**
 * JSON requests to a runtime as a signed-in user: `send` answers the status and body, `call` the
 * body, throwing on an error status.
 */
export function apiOf(baseUrl: string, cookie: string) {
  const send = async (method: string, path: string, body?: unknown) => {
    const response = await fetch(`${baseUrl}${path}`, {
      method,
      headers: { cookie, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    return { status: response.status, body: (await response.json()) as Record<string, any> };
  };
  const call = async (method: string, path: string, body?: unknown) => {
    const answer = await send(method, path, body);
    if (answer.status >= 400) throw new Error(`${method} ${path}: ${answer.status} ${JSON.stringify(answer.body)}`);
    return answer.body;
  };
  return { send, call };
}
