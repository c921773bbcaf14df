import { spawn } from 'node:child_process';

/** A local runtime (`bin/local.ts`) in a child process; resolves with its URL once it listens. `execArgv`: Node's own flags (a CPU profile). */
export function startRuntimeProcess(env: Record<string, string>, execArgv: string[] = []) {
  const child = spawn(process.execPath, [...execArgv, '--import', 'tsx', 'bin/local.ts'], {
    env: { ...process.env, PORT: '0', LOG_LEVEL: 'INFO', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  const url = new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL logged; output so far:\n${output}`)), 20_000);
    const check = () => {
      const match = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(output);
      if (match?.[1]) {
        clearTimeout(timer);
        resolve(match[1]);
      }
    };
    child.stdout.on('data', check);
    void exited.then((code) => {
      clearTimeout(timer);
      reject(new Error(`exited early with ${code}:\n${output}`));
    });
  });
  /** Stops it if it still runs (SIGTERM) and waits for it: for a test's `finally`, safe to call twice. */
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    return exited;
  };
  return { child, url, exited, output: () => output, stop };
}
