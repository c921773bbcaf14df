import { Outlet } from 'react-router';
import { $api } from '../../api/client';
import { useIsAdmin } from '../../app/session';
import { Tabs } from '../../ui/tabs';

/** The organisation: its users, teams, budgets, settings, team-chat integration, single sign-on, provisioning and connected MCP clients. */
export default function OrgShell() {
  const isAdmin = useIsAdmin();
  const org = $api.useQuery('get', '/api/org');
  const tabs = [
    { to: '/org', label: 'Users', end: true },
    { to: '/org/teams', label: 'Teams' },
    { to: '/org/budgets', label: 'Budgets' },
    ...(isAdmin
      ? [
          { to: '/org/settings', label: 'Settings' },
          { to: '/org/team-chat', label: 'Team chat' },
          { to: '/org/sso', label: 'Single sign-on' },
          { to: '/org/provisioning', label: 'Provisioning' },
          { to: '/org/clients', label: 'MCP clients' },
        ]
      : []),
  ];
  return (
    <div className="org">
      <p className="breadcrumb">Organisation{org.data ? ` / ${org.data.org.name}` : ''}</p>
      <Tabs label="Organisation" tabs={tabs} />
      <Outlet />
    </div>
  );
}
