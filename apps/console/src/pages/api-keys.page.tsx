/**
 * Vendor API keys (docs/api-conventions.md "Authentication"): create (the key is shown once, with a
 * copy button), rotate (a new key; the old one stays valid 24 hours), revoke, enable/disable, and
 * edit permissions and IP restrictions (PATCH /api/api-keys/:id). Each key says whether it is live
 * or sandbox; a revoked key stays listed, greyed, with when it was revoked. The table fits 1280
 * pixels: the actions wrap in their column rather than widen the table past the screen.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, InlineEditRow, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import {
  Alert,
  Check,
  Field,
  FormActions,
  PageHeader,
  RowAction,
  SecretOnce,
  Select,
  TextArea,
  formatDateTime,
} from '../components/ui';
import { formText } from '../components/form-text';

type ApiKey = Schemas['ApiKey'];
type KeyPermission = 'read' | 'write';

function ipList(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((entry) => entry.trim())
    .filter(Boolean);
}

function permissionsOf(form: FormData): KeyPermission[] {
  return (['read', 'write'] as const).filter((permission) => form.get(permission) === 'on');
}

export function ApiKeysPage() {
  const role = currentSession()?.user.role;
  const writable = can(role, 'api_keys:write');
  const keys = useLoad(async () => (await call(api.GET('/api/api-keys'))).data, 'keys');
  const vendors = useLoad(
    async () => (can(role, 'vendors:read') ? (await call(api.GET('/api/vendors'))).data : []),
    'vendors',
  );
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [secret, setSecret] = useState<{ label: string; value: string } | null>(null);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<string | null>(null);
  const vendorName = (id: string) => vendors.data?.find((vendor) => vendor.id === id)?.name ?? id;

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const rateLimit = formText(form, 'rate_limit').trim();
    void action.run(async () => {
      const created = await call(
        api.POST('/api/api-keys', {
          body: {
            name: formText(form, 'name'),
            vendor_id: formText(form, 'vendor_id'),
            permissions: permissionsOf(form),
            ip_restrictions: ipList(formText(form, 'ip_restrictions')),
            rate_limit: rateLimit ? Number(rateLimit) : null,
            environment: form.get('environment') === 'sandbox' ? 'sandbox' : 'live',
          },
        }),
      );
      setSecret({ label: `New API key “${created.data.name}”`, value: created.data.key });
      setCreating(false);
      keys.reload();
    });
  };
  const rotate = (key: ApiKey) =>
    confirmed(`Rotate “${key.name}”? The current key keeps working for 24 hours.`, async () => {
      const rotated = await call(api.POST('/api/api-keys/{id}/rotate', { params: { path: { id: key.id } } }));
      setSecret({ label: `Rotated key “${key.name}”`, value: rotated.new_key });
      keys.reload();
    });
  const revoke = (key: ApiKey) =>
    confirmed(`Revoke “${key.name}”? Requests with it are refused at once.`, async () => {
      await call(api.DELETE('/api/api-keys/{id}', { params: { path: { id: key.id } } }));
      keys.reload();
    });
  const update = (
    key: ApiKey,
    body: { enabled?: boolean; permissions?: KeyPermission[]; ip_restrictions?: string[] },
  ) =>
    action.run(async () => {
      await call(api.PATCH('/api/api-keys/{id}', { params: { path: { id: key.id } }, body }));
      keys.reload();
    });

  const vendorOptions = (vendors.data ?? []).map((vendor) => [vendor.id, `${vendor.name} (${vendor.type})`] as const);
  return (
    <section>
      <PageHeader title="API keys">
        {writable && !creating && (
          <button
            type="button"
            className="primary"
            onClick={() => setCreating(true)}
            disabled={vendorOptions.length === 0}
          >
            Create API key
          </button>
        )}
      </PageHeader>
      <p className="muted">
        A vendor sends leads with its key in <code>Authorization: Bearer vk_live_…</code> to{' '}
        <code>POST /api/v1/leads/ingest</code> (up to 100 at once to <code>POST /api/v1/leads/bulk-ingest</code>). A
        sandbox key (<code>vk_test_…</code>) sends to the same paths under <code>/sandbox</code>: its leads are never
        synced and disappear after 24 hours.
        {vendors.data?.length === 0 && (
          <>
            {' '}
            First <Link to="/vendors">add a vendor</Link>.
          </>
        )}
      </p>
      <Alert>{action.error ?? keys.error}</Alert>
      {secret && <SecretOnce label={secret.label} value={secret.value} onDone={() => setSecret(null)} />}
      {creating && (
        <form className="card" aria-label="New API key" onSubmit={create}>
          <h2>New API key</h2>
          <div className="grid">
            <Field label="Name" name="name" required maxLength={100} autoFocus />
            <Select label="Vendor" name="vendor_id" options={vendorOptions} required />
            <Select
              label="Environment"
              name="environment"
              options={[
                ['live', 'Live (vk_live_)'],
                ['sandbox', 'Sandbox (vk_test_)'],
              ]}
            />
            <Field
              label="Rate limit override (requests per minute, optional)"
              name="rate_limit"
              type="number"
              min={1}
              max={100000}
            />
          </div>
          <fieldset>
            <legend>Permissions</legend>
            <Check label="Read" name="read" defaultChecked />
            <Check label="Write (submit leads)" name="write" defaultChecked />
          </fieldset>
          <TextArea
            label="IP restrictions (optional)"
            name="ip_restrictions"
            rows={2}
            hint="Addresses or CIDR ranges, separated by spaces, commas or lines. Empty: any address."
          />
          <FormActions submitLabel="Create key" pending={action.pending} onCancel={() => setCreating(false)} />
        </form>
      )}
      <ListState loaded={keys} what="API keys">
        {(data) => (
          <DataTable
            rows={[...data.filter((key) => !key.revoked_at), ...data.filter((key) => key.revoked_at)]}
            columns={[
              'Name',
              'Key',
              'Vendor',
              'Permissions',
              'IP restrictions',
              'Last used',
              'State',
              writable && 'Actions',
            ]}
            empty="No API key yet."
            label="API keys"
          >
            {(key) =>
              editing === key.id ? (
                <KeyEditor
                  key={key.id}
                  apiKey={key}
                  onCancel={() => setEditing(null)}
                  onSave={(body) => void update(key, body).then((ok) => ok && setEditing(null))}
                />
              ) : (
                <tr key={key.id} className={key.revoked_at ? 'revoked' : undefined}>
                  <td>
                    <bdi>{key.name}</bdi>
                  </td>
                  <td>
                    <code className="nowrap">{key.key_preview}</code>{' '}
                    <span className={`badge badge-${key.environment}`}>
                      {key.environment === 'sandbox' ? 'Sandbox' : 'Live'}
                    </span>
                  </td>
                  <td>
                    <bdi>{vendorName(key.vendor_id)}</bdi>
                  </td>
                  <td>{key.permissions.join(', ')}</td>
                  <td className="break">{key.ip_restrictions.length ? key.ip_restrictions.join(', ') : 'any'}</td>
                  <td>{formatDateTime(key.last_used_at)}</td>
                  <td>
                    {key.revoked_at
                      ? `Revoked ${formatDateTime(key.revoked_at)}`
                      : key.enabled
                        ? 'Enabled'
                        : 'Disabled'}
                    {key.expires_at && !key.revoked_at && (
                      <div className="muted">expires {formatDateTime(key.expires_at)}</div>
                    )}
                  </td>
                  {writable && (
                    <td className="actions stack">
                      {!key.revoked_at && (
                        <>
                          <RowAction label="Edit" name={key.name} onClick={() => setEditing(key.id)} />
                          <RowAction
                            label={key.enabled ? 'Disable' : 'Enable'}
                            name={key.name}
                            onClick={() => void update(key, { enabled: !key.enabled })}
                          />
                          <RowAction label="Rotate" name={key.name} onClick={() => rotate(key)} />
                          <RowAction label="Revoke" name={key.name} onClick={() => revoke(key)} danger />
                        </>
                      )}
                    </td>
                  )}
                </tr>
              )
            }
          </DataTable>
        )}
      </ListState>
    </section>
  );
}

function KeyEditor({
  apiKey,
  onSave,
  onCancel,
}: {
  apiKey: ApiKey;
  onSave: (body: { permissions: KeyPermission[]; ip_restrictions: string[] }) => void;
  onCancel: () => void;
}) {
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    onSave({ permissions: permissionsOf(form), ip_restrictions: ipList(formText(form, 'ip_restrictions')) });
  };
  return (
    <InlineEditRow colSpan={8} label={`Edit ${apiKey.name}`} submitLabel="Save" onSubmit={submit} onCancel={onCancel}>
      <strong>{apiKey.name}</strong>
      <fieldset>
        <legend>Permissions</legend>
        <Check label="Read" name="read" defaultChecked={apiKey.permissions.includes('read')} />
        <Check label="Write" name="write" defaultChecked={apiKey.permissions.includes('write')} />
      </fieldset>
      <TextArea
        label="IP restrictions"
        name="ip_restrictions"
        rows={2}
        defaultValue={apiKey.ip_restrictions.join('\n')}
        hint="Empty: any address."
      />
    </InlineEditRow>
  );
}
