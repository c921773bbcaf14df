import { LogLevel, WebClient, type WebClientOptions } from '@slack/web-api';
import { LRUCache } from 'lru-cache';
import { errorMessage } from '../platform/errors.js';

/** Where the team-chat Web API is (`SLACK_API_URL`), for every client: the Web API's and socket mode's. */
export function chatClientOptions(slackApiUrl: string | undefined): WebClientOptions {
  return {
    ...(slackApiUrl ? { slackApiUrl } : {}),
    logLevel: LogLevel.ERROR,
    // Rate-limited calls (429) wait for Retry-After and are tried again, a few times.
    rejectRateLimitedCalls: false,
    retryConfig: { retries: 3, factor: 2, minTimeout: 200, maxTimeout: 5_000 },
  };
}

/** Bounded: tokens come and go over the life of the always-on bridge; the least recently used goes first. */
const clients = new LRUCache<string, WebClient>({ max: 1_000 });

/** One Web API client per token and URL, reused (keep-alive) across calls of the process. */
export function chatWebClient(token: string, slackApiUrl: string | undefined): WebClient {
  const key = `${slackApiUrl ?? ''}\u0000${token}`;
  let client = clients.get(key);
  if (!client) {
    client = new WebClient(token, chatClientOptions(slackApiUrl));
    clients.set(key, client);
  }
  return client;
}

/** The platform's error code of a failed call (`invalid_auth`, `channel_not_found`…), else the message. */
export function chatErrorOf(error: unknown): string {
  if (error && typeof error === 'object' && 'data' in error) {
    const data = (error as { data?: { error?: unknown } }).data;
    if (typeof data?.error === 'string') return data.error;
  }
  return errorMessage(error);
}
