/** Users and roles (docs/permissions.md): list, invite by email, change a role, remove. */
import { useState, type FormEvent } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Field, PageHeader, RowAction, Select, formatDateTime } from '../components/ui';
import { formText } from '../components/form-text';

const ROLES = ['admin', 'manager', 'viewer', 'vendor'] as const;
type InvitableRole = (typeof ROLES)[number];

export function UsersPage() {
  const session = currentSession();
  const writable = can(session?.user.role, 'users:write');
  const users = useLoad(async () => (await call(api.GET('/api/users'))).data, 'users');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [invited, setInvited] = useState<string | null>(null);
  const invite = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    void action.run(async () => {
      const user = await call(
        api.POST('/api/users/invite', {
          body: { email: formText(form, 'email'), role: formText(form, 'role') as InvitableRole },
        }),
      );
      setInvited(`Invitation sent to ${user.data.email}.`);
      formElement.reset();
      users.reload();
    });
  };
  const changeRole = (user: Schemas['User'], role: string) =>
    void action.run(async () => {
      await call(
        api.PATCH('/api/users/{id}', { params: { path: { id: user.id } }, body: { role: role as InvitableRole } }),
      );
      users.reload();
    });
  const remove = (user: Schemas['User']) =>
    confirmed(`Remove ${user.email} from the organization?`, async () => {
      await call(api.DELETE('/api/users/{id}', { params: { path: { id: user.id } } }));
      users.reload();
    });
  return (
    <section>
      <PageHeader title="Users" />
      <Alert>{action.error ?? users.error}</Alert>
      <Alert tone="success">{invited}</Alert>
      {writable && (
        <form className="inline-form card" aria-label="Invite a user" onSubmit={invite}>
          <Field label="Email" name="email" type="email" required />
          <Select label="Role" name="role" defaultValue="viewer" options={ROLES.map((role) => [role, role] as const)} />
          <button type="submit" className="primary" disabled={action.pending}>
            Invite
          </button>
        </form>
      )}
      <ListState loaded={users} what="users">
        {(data) => (
          <DataTable rows={data} columns={['Name', 'Email', 'Role', 'Status', 'Last sign-in', writable && 'Actions']}>
            {(user) => (
              <tr key={user.id}>
                <td>
                  <bdi>{user.first_name}</bdi> <bdi>{user.last_name}</bdi>
                </td>
                <td>{user.email}</td>
                <td>
                  {writable && user.id !== session?.user.id && user.role !== 'owner' ? (
                    <Select
                      label={`Role of ${user.email}`}
                      value={user.role}
                      onChange={(event) => changeRole(user, event.target.value)}
                      options={ROLES.map((role) => [role, role] as const)}
                    />
                  ) : (
                    user.role
                  )}
                </td>
                <td>{user.status}</td>
                <td>{formatDateTime(user.last_login_at)}</td>
                {writable && (
                  <td>
                    {user.id !== session?.user.id && user.role !== 'owner' && (
                      <RowAction label="Remove" name={user.email} onClick={() => remove(user)} danger />
                    )}
                  </td>
                )}
              </tr>
            )}
          </DataTable>
        )}
      </ListState>
    </section>
  );
}
