import { CopyButton } from './copy';

/** A secret the API shows once (a consumer's key): copy it now, it will not be shown again. */
export function SecretOnce({ label, value }: { label: string; value: string }) {
  return (
    <div className="secret-once" role="status">
      <p>
        <strong>{label}</strong> — copy it now: it is shown only this once.
      </p>
      <div className="secret-row">
        <code>{value}</code>
        <CopyButton value={value} />
      </div>
    </div>
  );
}
