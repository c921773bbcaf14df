/** Time helpers shared by the store's batch calls and the MCP hub. */

/** `promise`, or the error `timedOut` makes if it has not settled within `ms`. */
export function withTimeout<T>(promise: Promise<T>, ms: number, timedOut: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_resolve, reject) => {
    timer = setTimeout(() => reject(timedOut()), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Waits before retry `attempt` (1, 2, …): exponential backoff with full jitter, a random time up to
 * 25 × 2^attempt ms capped at 1 s, so callers throttled together do not retry together.
 */
export function jitteredBackoff(attempt: number): Promise<void> {
  const ceiling = Math.min(1000, 25 * 2 ** attempt);
  return new Promise((resolve) => setTimeout(resolve, Math.random() * ceiling));
}
