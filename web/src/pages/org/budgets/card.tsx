import { useId, useState } from 'react';
import { $api, type Schemas } from '../../../api/client';
import { useIsAdmin } from '../../../app/session';
import { Badge } from '../../../ui/badge';
import { BudgetMeter, coverOf, nameOf, periodOf, ResetTime } from '../../../ui/budget';
import { ConfirmButton } from '../../../ui/confirm';
import { ActionForm, Field } from '../../../ui/form';
import { money } from '../../../ui/format';
import { RowError } from '../../../ui/states';
import { limitOf, percentsOf, percentsText, useRefreshBudgets } from './shared';

type Budget = Schemas['Budget'];

const STATUS: Record<Budget['status'], string> = {
  ok: 'Under its first alert threshold.',
  alerted: 'Past an alert threshold: alerts were sent.',
  exceeded: 'Spent: queries it covers are refused until it resets.',
};

/** A budget's name for buttons and dialogs: "Customer Support per day". */
const titleOf = (budget: Budget) => `${nameOf(budget)} ${periodOf(budget)}`;

/** New limit and thresholds for a budget (the scope and period stay: a new one is another budget). */
function EditBudget({ budget, onDone }: { budget: Budget; onDone: (message?: string) => void }) {
  const refresh = useRefreshBudgets();
  const update = $api.useMutation('put', '/api/org/budgets/{id}', {
    onSuccess: async (data) => {
      await refresh();
      onDone(`Saved the budget of ${coverOf(data.budget)}: ${money(data.budget.limit_usd)} ${periodOf(data.budget)}.`);
    },
  });
  const title = `Change the budget of ${titleOf(budget)}`;
  return (
    <ActionForm
      className="form budget-edit"
      label={title}
      heading={3}
      error={update.error}
      onSubmit={(values) =>
        update.mutate({
          params: { path: { id: budget.id } },
          body: { limit_usd: limitOf(values.limit_usd), alert_percent: percentsOf(values.alert_percent) },
        })
      }
      submit="Save budget"
      pending={update.isPending}
      onCancel={() => onDone()}
    >
      <Field label="Limit (USD)" name="limit_usd" error={update.error} hint="A lower limit than what is spent refuses queries at once.">
        <input type="number" inputMode="decimal" min="0.01" step="0.01" defaultValue={budget.limit_usd} required autoComplete="off" />
      </Field>
      <Field
        label="Alert at (% of the limit)"
        name="alert_percent"
        error={update.error}
        hint="Percentages from 1 to 100, separated by commas; empty for no alerts."
      >
        <input defaultValue={percentsText(budget.alert_percent)} autoComplete="off" />
      </Field>
    </ActionForm>
  );
}

function DeleteBudget({ budget, onDone }: { budget: Budget; onDone: (message: string) => void }) {
  const refresh = useRefreshBudgets();
  const remove = $api.useMutation('delete', '/api/org/budgets/{id}', {
    onSuccess: async () => {
      await refresh();
      onDone(`Deleted the budget of ${coverOf(budget)} ${periodOf(budget)}.`);
    },
  });
  return (
    <>
      <ConfirmButton
        title={`Delete the budget of ${titleOf(budget)}?`}
        confirmLabel="Delete budget"
        disabled={remove.isPending}
        description={
          <p>
            Queries of {coverOf(budget)} are no longer limited by it (other budgets that cover them still are), and no more alerts are sent
            for it. What it counted this period is forgotten.
          </p>
        }
        onConfirm={() => remove.mutate({ params: { path: { id: budget.id } } })}
      >
        {remove.isPending ? 'Deleting…' : 'Delete'}
        <span className="visually-hidden"> budget of {titleOf(budget)}</span>
      </ConfirmButton>
      <RowError error={remove.error} />
    </>
  );
}

/** One budget: what it covers, spent against its limit, its status and reset; an admin changes or deletes it. */
export function BudgetCard({ budget, onNotice }: { budget: Budget; onNotice: (message: string) => void }) {
  const isAdmin = useIsAdmin();
  const headingId = useId();
  const [editing, setEditing] = useState(false);
  return (
    <article className="card budget-card" aria-labelledby={headingId}>
      <div className="wc-card-head">
        <h2 id={headingId}>
          {nameOf(budget)}{' '}
          <span className="row-meta">
            · {budget.scope === 'org' ? 'organisation' : budget.scope}, {periodOf(budget)}
          </span>
        </h2>
        <Badge status={budget.status} />
      </div>
      <BudgetMeter budget={budget} label={`Spent of the budget of ${titleOf(budget)}`} />
      <dl className="wc-facts">
        <dt>Covers</dt>
        <dd>{coverOf(budget)}</dd>
        <dt>Status</dt>
        <dd>{STATUS[budget.status]}</dd>
        <dt>Resets</dt>
        <dd>
          <ResetTime at={budget.resets_at} /> (each UTC {budget.period})
        </dd>
        <dt>Alerts at</dt>
        <dd>{budget.alert_percent.length ? budget.alert_percent.map((value) => `${value}%`).join(', ') : 'none'}</dd>
      </dl>
      {isAdmin && !editing && (
        <div className="actions">
          <button type="button" className="button secondary" onClick={() => setEditing(true)}>
            Change<span className="visually-hidden"> the budget of {titleOf(budget)}</span>
          </button>
          <DeleteBudget budget={budget} onDone={onNotice} />
        </div>
      )}
      {editing && (
        <EditBudget
          budget={budget}
          onDone={(message) => {
            setEditing(false);
            if (message) onNotice(message);
          }}
        />
      )}
    </article>
  );
}
