const TONES: Record<string, string> = {
  connected: 'good',
  set: 'good',
  active: 'good',
  ok: 'good',
  open: 'good',
  approved: 'good',
  resolved: 'good',
  positive: 'good',
  done: 'good',
  passed: 'good',
  verified: 'good',
  ready: 'good',
  cold: 'warn',
  pending: 'warn',
  alerted: 'warn',
  needs_authorization: 'warn',
  not_set: 'warn',
  neutral: 'warn',
  queued: 'warn',
  running: 'warn',
  processing: 'warn',
  closed: 'muted',
  expired: 'muted',
  revoked: 'muted',
  archived: 'muted',
  error: 'bad',
  exceeded: 'bad',
  denied: 'bad',
  failed: 'bad',
  negative: 'bad',
  unresolved: 'bad',
  regression: 'bad',
};

/** A status word in a coloured pill; the word itself carries the meaning (colour is only a hint). */
export function Badge({ status }: { status: string }) {
  return <span className={`badge badge-${TONES[status] ?? 'muted'}`}>{status.replaceAll('_', ' ')}</span>;
}
