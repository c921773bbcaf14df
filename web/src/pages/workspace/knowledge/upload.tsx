import { type DragEvent, useId, useState } from 'react';
import { errorText } from '../../../api/client';
import { MAX_DOCUMENT_BYTES, uploadDocument, useRefreshDocuments } from './documents-api';

/** What the service reads, for the picker's choice of files (a drop takes any file: the service says what it refuses). */
const ACCEPT = '.md,.markdown,.txt,.text,.html,.htm,.pdf,.docx,text/markdown,text/plain,text/html,application/pdf';

/** One file of the last batch: on its way, added (now being read), or refused (by the browser or the service) and why. */
interface Outcome {
  key: string;
  name: string;
  state: 'sending' | 'added' | 'refused';
  message?: string;
}

const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1)} MB`;

/** The API's message, with what it says of each field ("this kind of file is not read: must be Markdown, …"). */
function refusalOf(error: unknown): string {
  const details =
    error && typeof error === 'object' && 'details' in error && Array.isArray(error.details)
      ? (error.details as { message?: unknown }[]).map((detail) => String(detail.message ?? '')).filter(Boolean)
      : [];
  return [errorText(error), ...details].join(': ');
}

/** Sends each file on its own, one after another; a file over the limit is refused here, before a byte is sent. */
function useUploads(workspaceId: string) {
  const refresh = useRefreshDocuments();
  const [outcomes, setOutcomes] = useState<Outcome[]>([]);
  const upload = async (files: File[]) => {
    const batch = files.map((file, index): Outcome => {
      const key = `${Date.now()}-${index}`;
      if (file.size <= MAX_DOCUMENT_BYTES) return { key, name: file.name, state: 'sending' };
      return { key, name: file.name, state: 'refused', message: `it is ${megabytes(file.size)}; a document is at most 20 MB.` };
    });
    setOutcomes(batch);
    const settle = (key: string, change: Partial<Outcome>) =>
      setOutcomes((shown) => shown.map((outcome) => (outcome.key === key ? { ...outcome, ...change } : outcome)));
    for (const [index, outcome] of batch.entries()) {
      const file = files[index];
      if (outcome.state !== 'sending' || !file) continue;
      try {
        await uploadDocument(workspaceId, file);
        settle(outcome.key, { state: 'added' });
        await refresh();
      } catch (error) {
        settle(outcome.key, { state: 'refused', message: refusalOf(error) });
      }
    }
  };
  return { outcomes, upload };
}

function OutcomeLine({ outcome }: { outcome: Outcome }) {
  if (outcome.state === 'sending') return <li>Sending {outcome.name}…</li>;
  if (outcome.state === 'added') return <li className="kd-added">Added {outcome.name}: it is being read.</li>;
  return (
    <li className="kd-refused">
      Not added: {outcome.name}: {outcome.message}
    </li>
  );
}

/**
 * Where an admin adds files: dropped on the area, or chosen with its file picker (a labelled input,
 * so the keyboard reaches it). Each file is its own request; what became of each is said under it.
 */
export function UploadArea({ workspaceId }: { workspaceId: string }) {
  const inputId = useId();
  const hintId = useId();
  const [over, setOver] = useState(false);
  const { outcomes, upload } = useUploads(workspaceId);
  const dragging = (event: DragEvent, into: boolean) => {
    event.preventDefault();
    setOver(into);
  };
  return (
    <fieldset
      className={`kd-drop${over ? ' kd-drop-over' : ''}`}
      onDragEnter={(event) => dragging(event, true)}
      onDragOver={(event) => dragging(event, true)}
      onDragLeave={(event) => dragging(event, false)}
      onDrop={(event) => {
        dragging(event, false);
        void upload([...event.dataTransfer.files]);
      }}
    >
      <legend className="kd-drop-title">Upload documents</legend>
      <p className="hint" id={hintId}>
        Drop files here, or choose them: Markdown, plain text, HTML, PDF or Word (DOCX), at most 20 MB each. Each is read into passages the
        model searches.
      </p>
      <input
        id={inputId}
        type="file"
        className="kd-file"
        multiple
        accept={ACCEPT}
        aria-describedby={hintId}
        onChange={(event) => {
          const files = [...(event.target.files ?? [])];
          // Cleared, so choosing the same file again sends it again.
          event.target.value = '';
          if (files.length) void upload(files);
        }}
      />
      {/* The input is hidden from sight, not from the keyboard: its label is the button people see, outlined when it has the focus. */}
      <label htmlFor={inputId} className="kd-pick">
        Choose files
      </label>
      <div role="status">
        {outcomes.length > 0 && (
          <ul className="kd-outcomes">
            {outcomes.map((outcome) => (
              <OutcomeLine key={outcome.key} outcome={outcome} />
            ))}
          </ul>
        )}
      </div>
    </fieldset>
  );
}
