import { createGuardedFetch } from './url-policy.js';

/*
 * A tenant's webhooks: where the service POSTs a notice (a budget's alert, a routine's answer), and
 * what such a URL may be. Through the address policy (url-policy.ts), like a tool server.
 */

/** How long a notice's POST waits for its receiver. */
const NOTICE_TIMEOUT_MS = 10_000;

/**
 * POSTs `body` as JSON to a tenant's webhook (a budget alert, a routine's answer): through the
 * address policy (a guarded fetch of its own, closed after), 10 s at most, the answer not read. A
 * status other than 2xx throws, naming `receiver`, so the job that sent it is tried again.
 */
export async function postNotice(url: string, body: unknown, options: { allowPrivate: boolean; receiver: string }): Promise<void> {
  const { fetch, close } = createGuardedFetch(options.allowPrivate);
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
      signal: AbortSignal.timeout(NOTICE_TIMEOUT_MS),
    });
    await response.body?.cancel();
    if (!response.ok) throw new Error(`${options.receiver} answered ${response.status}`);
  } finally {
    await close();
  }
}

/**
 * What is wrong with a webhook URL a tenant gives (the alerts webhook, a routine's delivery URL),
 * or undefined: http(s), no credentials in it. Its address is checked when it is used (`postNotice`).
 */
export function webhookUrlProblem(value: string): string | undefined {
  if (!URL.canParse(value)) return 'must be an http or https URL';
  const url = new URL(value);
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'must be an http or https URL';
  return url.username || url.password ? 'must not hold a user name or password' : undefined;
}
