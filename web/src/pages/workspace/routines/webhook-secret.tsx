import { useEffect, useRef } from 'react';
import { CopyButton } from '../../../ui/copy';
import { SecretOnce } from '../../../ui/secret';
import { curlExample, hookUrlOf, type Routine } from './shared';

interface WebhookSecretProps {
  routine: Routine;
  secret: string;
  /** Set when the secret replaced another by a rotation: how many minutes the old one still works. */
  keptMinutes?: number;
  onDone: () => void;
}

/** What a rotation did to the old secret. */
function oldSecretText(minutes: number): string {
  if (minutes === 0) return 'The old secret no longer works.';
  return `The old secret keeps working for ${minutes % 60 === 0 ? `${minutes / 60} hour${minutes === 60 ? '' : 's'}` : `${minutes} minutes`}: move your senders to this one.`;
}

/**
 * A webhook routine's URL and signing secret, shown once as it is made or rotated (the service
 * never answers the secret again), with a curl command that signs a delivery with openssl as docs/routines.md does.
 */
export function WebhookSecret({ routine, secret, keptMinutes, onDone }: WebhookSecretProps) {
  const heading = useRef<HTMLHeadingElement>(null);
  // The form that made it is gone: the reader is taken to what replaced it.
  useEffect(() => heading.current?.focus(), []);
  const url = hookUrlOf(routine.hook_path ?? `/hooks/routines/${routine.id}`);
  const curl = curlExample(url, secret);
  return (
    <section className="card rt-secret" aria-labelledby={`secret-${routine.id}`}>
      <h2 id={`secret-${routine.id}`} ref={heading} tabIndex={-1}>
        The webhook of {routine.name}
      </h2>
      <p>
        POST to this URL to start a run; the request's body reaches the model as data. Sign each request with the secret below (
        <code>X-Signature-256</code>, an HMAC-SHA256 of <code>&lt;X-Timestamp&gt;.&lt;body&gt;</code>), or use GitHub's{' '}
        <code>X-Hub-Signature-256</code>.
      </p>
      <div className="secret-row rt-url">
        <code>{url}</code>
        <CopyButton value={url} what="the webhook URL" />
      </div>
      <SecretOnce label="Signing secret" value={secret} />
      {keptMinutes !== undefined && <p>{oldSecretText(keptMinutes)}</p>}
      <p className="hint">It will not be shown again: to get a new one, use Rotate secret on the routine.</p>
      <div className="section-header">
        <h3>Try it with curl</h3>
        <CopyButton value={curl} what="the curl example" />
      </div>
      <pre className="rt-curl">{curl}</pre>
      <div className="actions">
        <button type="button" className="button" onClick={onDone}>
          I have copied the secret
        </button>
      </div>
    </section>
  );
}
