import { useEffect, useRef, useState } from 'react';
import { NavLink, Outlet, useLocation } from 'react-router-dom';
import { api } from '../api/client';
import { currentEnvironment, onEnvironmentChange, setEnvironment, type Environment } from '../api/environment';
import { can, type Permission } from '../api/permissions';
import { endSession, type Session } from '../api/session';
import { Select } from './ui';

const NAV: ReadonlyArray<{ to: string; label: string; permission: Permission }> = [
  { to: '/leads', label: 'Leads', permission: 'leads:read' },
  { to: '/review', label: 'Review', permission: 'leads:read' },
  { to: '/funnel', label: 'Funnel', permission: 'analytics:read' },
  { to: '/analytics', label: 'Reports', permission: 'analytics:read' },
  { to: '/vendors', label: 'Vendors', permission: 'vendors:read' },
  { to: '/api-keys', label: 'API keys', permission: 'api_keys:read' },
  { to: '/rules', label: 'Enrichment rules', permission: 'rules:read' },
  { to: '/custom-fields', label: 'Custom fields', permission: 'rules:read' },
  { to: '/validation-rules', label: 'Validation rules', permission: 'rules:read' },
  { to: '/lookup-tables', label: 'Lookup tables', permission: 'rules:read' },
  { to: '/calculated-fields', label: 'Calculated fields', permission: 'rules:read' },
  { to: '/dedup', label: 'Deduplication', permission: 'dedup:read' },
  { to: '/suppression-lists', label: 'Suppression lists', permission: 'suppression:read' },
  { to: '/routing', label: 'Routing', permission: 'rules:read' },
  { to: '/caps', label: 'Volume caps', permission: 'caps:read' },
  { to: '/crm', label: 'CRM connections', permission: 'crm:read' },
  { to: '/webhooks', label: 'Webhooks', permission: 'webhooks:read' },
  { to: '/users', label: 'Users', permission: 'users:read' },
  { to: '/organization', label: 'Organization', permission: 'organization:read' },
];

export function Layout({ session }: { session: Session }) {
  const [open, setOpen] = useState(false);
  const [environment, setShown] = useState<Environment>(currentEnvironment());
  useEffect(() => onEnvironmentChange(setShown), []);
  const { pathname } = useLocation();
  const first = useRef(true);
  // After a navigation, focus moves to the new page (screen readers announce it), not on the first load.
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    document.getElementById('main')?.focus();
  }, [pathname]);
  const signOut = async () => {
    await api.POST('/api/auth/logout').catch(() => undefined);
    endSession();
  };
  return (
    <div className="shell">
      <a className="skip" href="#main">
        Skip to content
      </a>
      <header className="topbar">
        <span className="brand">
          <span aria-hidden="true">L</span> leadstream
        </span>
        <button
          type="button"
          className="menu-toggle"
          aria-expanded={open}
          aria-controls="nav"
          onClick={() => setOpen(!open)}
        >
          Menu
        </button>
        <div className="account">
          {can(session.user.role, 'leads:read') && (
            <div
              className="environment-switch"
              title="Which leads the console shows: live ones, or the sandbox's (sent with vk_test_ keys)"
            >
              <Select
                label="Environment"
                value={environment}
                onChange={(event) => setEnvironment(event.target.value === 'sandbox' ? 'sandbox' : 'live')}
                options={[
                  ['live', 'Live'],
                  ['sandbox', 'Sandbox'],
                ]}
              />
            </div>
          )}
          <NavLink
            to="/account"
            className="muted"
            data-testid="signed-in-as"
            title="Your account: change your password"
          >
            <bdi>{`${session.user.first_name} ${session.user.last_name}`}</bdi> · {session.user.role}
          </NavLink>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <div className="body">
        <nav id="nav" aria-label="Console" className={open ? 'open' : ''}>
          <ul>
            {NAV.filter((item) => can(session.user.role, item.permission)).map((item) => (
              <li key={item.to}>
                <NavLink to={item.to} onClick={() => setOpen(false)}>
                  {item.label}
                </NavLink>
              </li>
            ))}
          </ul>
        </nav>
        <main id="main" tabIndex={-1}>
          {environment === 'sandbox' && (
            <p className="alert alert-info">
              Sandbox: leads sent with vk_test_ keys to <code>/sandbox</code>, kept 24 hours. They are read-only here
              and never sent to a CRM; the other screens are the same as live.
            </p>
          )}
          {/* A new environment mounts the page again, so it loads what the switch now shows. */}
          <Outlet key={environment} />
        </main>
      </div>
    </div>
  );
}
