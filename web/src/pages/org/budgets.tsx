import { Link, useSearchParams } from 'react-router';
import { $api } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { PageHeader } from '../../ui/page';
import { Notice, usePanel } from '../../ui/panel';
import { Loadable } from '../../ui/states';
import { AddBudget, type BudgetTarget } from './budgets/add-form';
import { BudgetCard } from './budgets/card';

/** `?scope=workspace&scope_id=ws-…` (a workspace's overview links here so): the add form opens for it. */
function targetOf(params: URLSearchParams): BudgetTarget | undefined {
  const scope = params.get('scope');
  if (scope !== 'org' && scope !== 'workspace' && scope !== 'user' && scope !== 'consumer') return undefined;
  return { scope, scopeId: params.get('scope_id') ?? undefined };
}

/** The organisation's budgets with what each has spent this period; an admin adds, changes and deletes them. */
export default function Budgets() {
  const isAdmin = useIsAdmin();
  const [params] = useSearchParams();
  const target = targetOf(params);
  const panel = usePanel(isAdmin && target !== undefined);
  const budgets = $api.useQuery('get', '/api/org/budgets');
  return (
    <>
      <PageHeader
        title="Budgets"
        actions={
          isAdmin &&
          !panel.open && (
            <button type="button" className="button" onClick={panel.show}>
              Add budget
            </button>
          )
        }
      >
        <p>
          Limits on what the organisation, a workspace, a consumer, a user or a routine spends on the model each UTC day or month. A query
          (or a routine's run) that would go over a budget that covers it is refused until the budget resets.
        </p>
        {isAdmin && (
          <p>
            Alerts at each threshold go to the <Link to="/org/settings?key=alerts_webhook_url">alerts_webhook_url</Link> setting.
          </p>
        )}
      </PageHeader>
      <Notice message={panel.notice} />
      {panel.open && <AddBudget target={target} onDone={panel.done} />}
      <Loadable
        query={budgets}
        label="budgets"
        isEmpty={(data) => data.budgets.length === 0}
        empty={
          isAdmin
            ? 'No budgets yet: nothing limits what is spent but each workspace’s tokens per query. Add one to cap a day’s or a month’s spending.'
            : 'No budgets yet: an admin of the organisation adds them.'
        }
      >
        {(data) => (
          <div className="wc-list">
            {data.budgets.map((budget) => (
              <BudgetCard key={budget.id} budget={budget} onNotice={panel.say} />
            ))}
          </div>
        )}
      </Loadable>
    </>
  );
}
