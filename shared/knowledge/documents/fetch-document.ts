import type { Deps } from '../../deps.js';
import { createGuardedFetch, type GuardedFetch, UrlRefusedError } from '../../platform/url-policy.js';
import { DocumentRejectedError } from '../ingest/rejected.js';
import { MAX_DOCUMENT_BYTES } from './limits.js';

/*
 * A document given by its URL, fetched by the ingestion job through the tool servers' address
 * policy (platform/url-policy.ts): every address and every redirect checked (no link-local or
 * metadata address ever, private ones only with MCP_ALLOW_PRIVATE_URLS), the answer cut at the
 * documents' size limit as it is read, and a time limit.
 */

const FETCH_TIMEOUT_MS = 30_000;

/** One guarded fetch per policy per process (its connection pools are kept). */
const fetches = new Map<boolean, GuardedFetch>();

export async function fetchDocument(deps: Deps, url: string): Promise<{ bytes: Uint8Array; contentType?: string }> {
  const allowPrivate = deps.config.mcpAllowPrivateUrls;
  let guarded = fetches.get(allowPrivate);
  if (!guarded) {
    guarded = createGuardedFetch(allowPrivate, { maxResponseBytes: MAX_DOCUMENT_BYTES });
    fetches.set(allowPrivate, guarded);
  }
  let answer: Response;
  try {
    answer = await guarded.boundedFetch(url, { signal: AbortSignal.timeout(FETCH_TIMEOUT_MS), headers: { accept: '*/*' } });
  } catch (error) {
    const cause = error instanceof UrlRefusedError ? error : (error as Error).cause;
    if (cause instanceof UrlRefusedError) throw new DocumentRejectedError('unreadable', `the URL is not allowed: ${cause.message}`);
    throw new DocumentRejectedError(
      'unreadable',
      `the URL could not be fetched: ${(cause as Error | undefined)?.message ?? (error as Error).message}`,
    );
  }
  if (!answer.ok) {
    await answer.body?.cancel().catch(() => undefined);
    throw new DocumentRejectedError('unreadable', `the URL answered ${answer.status}`);
  }
  const declared = Number(answer.headers.get('content-length') ?? '0');
  if (declared > MAX_DOCUMENT_BYTES) {
    await answer.body?.cancel().catch(() => undefined);
    throw new DocumentRejectedError('too_large', 'the document is larger than 20 MB');
  }
  try {
    const bytes = new Uint8Array(await answer.arrayBuffer());
    return { bytes, contentType: answer.headers.get('content-type') ?? undefined };
  } catch {
    throw new DocumentRejectedError('too_large', 'the document is larger than 20 MB, or its answer broke off');
  }
}
