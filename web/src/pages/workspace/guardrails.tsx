import { useState } from 'react';
import type { Schemas } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { PageHeader, Section } from '../../ui/page';
import { Empty, ErrorNote, Loadable } from '../../ui/states';
import { useCompliance } from './guardrails/compliance';
import { AddGuardrail, EditGuardrail } from './guardrails/form';
import { GuardrailsTable, ViolationsTable } from './guardrails/tables';
import { useWorkspaceId } from './shell';

type Form = { kind: 'add' } | { kind: 'edit'; guardrail: Schemas['Guardrail'] };

/** The workspace's guardrails (admins add, change and delete them) and the violations they caught. */
export default function Guardrails() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const [form, setForm] = useState<Form>();
  const compliance = useCompliance(id);
  const close = () => setForm(undefined);
  return (
    <>
      <PageHeader
        title="Guardrails"
        actions={
          isAdmin &&
          !form && (
            <button type="button" className="button" onClick={() => setForm({ kind: 'add' })}>
              Add a guardrail
            </button>
          )
        }
      >
        <p>Patterns blocked or redacted in questions and answers, and tools the agent may not call.</p>
      </PageHeader>
      {form?.kind === 'add' && <AddGuardrail workspaceId={id} onDone={close} />}
      {form?.kind === 'edit' && <EditGuardrail key={form.guardrail.id} workspaceId={id} guardrail={form.guardrail} onDone={close} />}
      {/* A failed "Load more" keeps the pages read so far: only a failed first read is the page's error. */}
      <Loadable query={{ ...compliance, isError: compliance.isLoadingError }} label="guardrails">
        {(data) => {
          const guardrails = data.pages[0]?.guardrails ?? [];
          const violations = data.pages.flatMap((page) => page.violations);
          return (
            <>
              <Section title="Defined guardrails">
                {guardrails.length === 0 ? (
                  <Empty>
                    {isAdmin ? 'No guardrails yet: add one, or start from a preset.' : 'No guardrails yet: an admin adds them.'}
                  </Empty>
                ) : (
                  <GuardrailsTable workspaceId={id} guardrails={guardrails} onEdit={(guardrail) => setForm({ kind: 'edit', guardrail })} />
                )}
              </Section>
              <Section title="Violations">
                <p className="hint wc-intro">What the guardrails caught, newest first.</p>
                {violations.length === 0 ? (
                  <Empty>No violations: nothing has matched a guardrail.</Empty>
                ) : (
                  <ViolationsTable workspaceId={id} violations={violations} />
                )}
                {compliance.isFetchNextPageError && <ErrorNote error={compliance.error} retry={() => void compliance.fetchNextPage()} />}
                {compliance.hasNextPage && (
                  <button
                    type="button"
                    className="button secondary"
                    disabled={compliance.isFetchingNextPage}
                    aria-busy={compliance.isFetchingNextPage || undefined}
                    onClick={() => void compliance.fetchNextPage()}
                  >
                    {compliance.isFetchingNextPage ? 'Loading…' : 'Load more violations'}
                  </button>
                )}
              </Section>
            </>
          );
        }}
      </Loadable>
    </>
  );
}
