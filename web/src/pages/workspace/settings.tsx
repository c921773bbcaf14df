import { $api } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { PageHeader, Section } from '../../ui/page';
import { Loadable, Loading } from '../../ui/states';
import { SettingsForm } from './settings/form';
import { RetireWorkspace } from './settings/retire';
import { About, SettingsView } from './settings/view';
import { useWorkspaceId } from './shell';

/** The workspace's settings: admins edit them (PUT /api/workspaces/{id}); members read them. */
export default function Settings() {
  const id = useWorkspaceId();
  const isAdmin = useIsAdmin();
  const summary = $api.useQuery('get', '/api/workspaces/{id}/summary', { params: { path: { id } } });
  const models = $api.useQuery('get', '/api/models');
  return (
    <>
      <PageHeader title="Settings">
        <p>
          {isAdmin
            ? 'How this workspace answers: its model, prompt, timeouts, limits, approvals, tool search and who reads its conversations.'
            : 'Only an admin of your organisation changes these.'}
        </p>
      </PageHeader>
      <Loadable query={summary} label="settings">
        {({ workspace }) => (
          <>
            <About workspace={workspace} />
            {/* The model choice needs the catalogue before the form starts (a select keeps its first value). */}
            {models.isPending ? (
              <Loading label="Loading the models" />
            ) : isAdmin ? (
              <Section title="Edit settings">
                <SettingsForm workspace={workspace} models={models.data?.models} />
              </Section>
            ) : (
              <SettingsView workspace={workspace} models={models.data?.models} />
            )}
            {isAdmin && <RetireWorkspace workspace={workspace} />}
          </>
        )}
      </Loadable>
    </>
  );
}
