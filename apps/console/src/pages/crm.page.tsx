/**
 * CRM connections (docs/crm.md): the connections with their settings and sync counts;
 * create one per type (webhook_json, salesforce, hubspot) with its settings and credentials, which
 * are write-only (the API answers only which credential fields are set, and so does this page);
 * edit one in place (same id, so routing rules keep naming it; credentials left empty are kept);
 * "Test connection" (a call that writes nothing) with its outcome; delete.
 */
import { useState, type FormEvent } from 'react';
import type { Schemas, paths } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import {
  Alert,
  Check,
  Field,
  FormActions,
  PageHeader,
  RowAction,
  Select,
  TextArea,
  formatDateTime,
} from '../components/ui';
import { formText } from '../components/form-text';
import { fieldMappingOf, formatMappings } from './config-values';

type Connection = Schemas['CrmConnection'];
type CreateBody = paths['/api/crm/connections']['post']['requestBody']['content']['application/json'];
type Settings = CreateBody['settings'];
type ConnectionType = CreateBody['type'];
type SettingName = keyof CreateBody['settings'];
type CredentialName = keyof NonNullable<CreateBody['credentials']>;

interface TypeForm {
  label: string;
  settings: ReadonlyArray<{
    name: Exclude<SettingName, 'field_mapping' | 'grant_type' | 'keep_assignment_rules'>;
    label: string;
    required?: boolean;
    url?: boolean;
    hint?: string;
  }>;
  credentials: ReadonlyArray<{ name: CredentialName; label: string; hint?: string }>;
  grantType?: boolean;
  /** Salesforce: the keep_assignment_rules setting (docs/crm.md). */
  assignmentRules?: boolean;
}

/** The settings and credentials of each type (docs/crm.md); empty fields take the service's defaults. */
const CRM_TYPES: Record<ConnectionType, TypeForm> = {
  webhook_json: {
    label: 'Generic JSON endpoint (webhook_json)',
    settings: [
      {
        name: 'url',
        label: 'Endpoint URL',
        required: true,
        url: true,
        hint: 'Each lead is POSTed here; the receiver upserts by external_id.',
      },
      { name: 'auth_header', label: 'Auth header (optional)', hint: 'Default: Authorization' },
      { name: 'id_field', label: 'Record id field of the answer (optional)', hint: 'Default: id' },
      {
        name: 'record_url_template',
        label: 'Record URL template (optional)',
        hint: 'e.g. https://crm.example.edu/leads/{crm_id}',
      },
    ],
    credentials: [{ name: 'auth_value', label: 'Auth header value (optional)', hint: 'e.g. Bearer …' }],
  },
  salesforce: {
    label: 'Salesforce',
    settings: [
      {
        name: 'instance_url',
        label: 'Instance URL',
        required: true,
        url: true,
        hint: 'https://<domain>.my.salesforce.com',
      },
      {
        name: 'token_url',
        label: 'Token URL (optional)',
        url: true,
        hint: 'Default: {instance URL}/services/oauth2/token',
      },
      { name: 'external_id_field', label: 'External id field (optional)', hint: 'Default: Leadstream_Id__c' },
      { name: 'api_version', label: 'API version (optional)', hint: 'Default: v60.0' },
    ],
    credentials: [
      { name: 'client_id', label: 'Client id' },
      { name: 'client_secret', label: 'Client secret' },
      { name: 'refresh_token', label: 'Refresh token (refresh-token grant only)' },
    ],
    grantType: true,
    assignmentRules: true,
  },
  hubspot: {
    label: 'HubSpot',
    settings: [
      { name: 'base_url', label: 'API base URL (optional)', url: true, hint: 'Default: https://api.hubapi.com' },
      { name: 'portal_id', label: 'Portal id (optional)', hint: 'For links to the contact record' },
    ],
    credentials: [
      {
        name: 'private_app_token',
        label: 'Private app token',
        hint: 'Scopes crm.objects.contacts.write (syncs) and crm.objects.contacts.read (Test connection)',
      },
    ],
  },
};
const TYPE_NAMES = Object.keys(CRM_TYPES) as ConnectionType[];

export function CrmPage() {
  const role = currentSession()?.user.role;
  const writable = can(role, 'crm:write');
  const connections = useLoad(async () => (await call(api.GET('/api/crm/connections'))).data, 'crm');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const [editing, setEditing] = useState<Connection | null>(null);
  const [tested, setTested] = useState<{ name: string; result: Schemas['CrmConnectionTest'] } | null>(null);

  const test = (connection: Connection) =>
    void action.run(async () => {
      setTested(null);
      setTested({
        name: connection.name,
        result: await call(api.POST('/api/crm/connections/{id}/test', { params: { path: { id: connection.id } } })),
      });
    });
  const remove = (connection: Connection) =>
    confirmed(`Delete the CRM connection “${connection.name}”? Leads are no longer synced to it.`, async () => {
      await call(api.DELETE('/api/crm/connections/{id}', { params: { path: { id: connection.id } } }));
      connections.reload();
    });

  return (
    <section>
      <PageHeader title="CRM connections">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Add connection
          </button>
        )}
      </PageHeader>
      <p className="muted">
        Routed live leads are sent to the connections their route names (see Routing); with no routing set up, to every
        enabled connection. Credentials are stored encrypted and never shown again.
      </p>
      <Alert>{action.error ?? connections.error}</Alert>
      {tested &&
        (tested.result.success ? (
          <Alert tone="success">
            <span data-testid="crm-test-outcome">
              “{tested.name}” answered
              {tested.result.response_status !== null && ` HTTP ${tested.result.response_status}`} in{' '}
              {tested.result.response_time_ms} ms: the connection works.
            </span>
          </Alert>
        ) : (
          <Alert>
            <span data-testid="crm-test-outcome">
              “{tested.name}” failed
              {tested.result.response_status !== null && ` with HTTP ${tested.result.response_status}`} after{' '}
              {tested.result.response_time_ms} ms: {tested.result.error ?? 'no reason given'}
            </span>
          </Alert>
        ))}
      {creating && (
        <ConnectionForm
          onCancel={() => setCreating(false)}
          onSaved={() => {
            setCreating(false);
            connections.reload();
          }}
        />
      )}
      {editing && (
        <ConnectionForm
          key={editing.id}
          editing={editing}
          onCancel={() => setEditing(null)}
          onSaved={() => {
            setEditing(null);
            connections.reload();
          }}
        />
      )}
      <ListState loaded={connections} what="CRM connections">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Name', 'Type', 'Settings', 'Credentials', 'Syncs', 'State', writable && 'Actions']}
            empty="No CRM connection yet."
          >
            {(connection) => (
              <tr key={connection.id}>
                <td>
                  {connection.name}
                  <div className="muted">
                    <code>{connection.id}</code>
                  </div>
                </td>
                <td>{connection.type}</td>
                <td>
                  {Object.entries(connection.settings as Record<string, unknown>)
                    .filter(([, value]) => value !== null && value !== undefined && value !== '')
                    .map(([key, value]) => (
                      <div key={key}>
                        <code>
                          {key}: {typeof value === 'string' ? value : JSON.stringify(value)}
                        </code>
                      </div>
                    ))}
                </td>
                <td>{connection.credentials_set ? `set (${connection.credential_fields.join(', ')})` : 'none'}</td>
                <td>
                  {connection.stats.synced} synced, {connection.stats.failed} failed
                  <div className="muted">last {formatDateTime(connection.last_sync_at)}</div>
                </td>
                <td>{connection.enabled ? 'Enabled' : 'Disabled'}</td>
                {writable && (
                  <td className="actions">
                    <RowAction
                      label="Test connection"
                      name={connection.name}
                      onClick={() => test(connection)}
                      disabled={action.pending}
                    />
                    <RowAction
                      label="Edit"
                      name={connection.name}
                      onClick={() => {
                        setCreating(false);
                        setEditing(connection);
                      }}
                    />
                    <RowAction label="Delete" name={connection.name} onClick={() => remove(connection)} danger />
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

/** A new connection, or the one being edited (its type fixed; credentials left empty are kept). */
function ConnectionForm({
  editing,
  onSaved,
  onCancel,
}: {
  editing?: Connection;
  onSaved: () => void;
  onCancel: () => void;
}) {
  const action = useAction();
  const [type, setType] = useState<ConnectionType>(editing?.type ?? 'webhook_json');
  const spec = CRM_TYPES[type];
  const stored = (editing?.settings ?? {}) as Settings;
  const storedText = (name: keyof Settings): string | undefined => {
    const value = stored[name];
    // A token URL the service derived from the instance URL is left empty, so it follows a new instance URL.
    if (name === 'token_url' && value === `${String(stored.instance_url)}/services/oauth2/token`) return undefined;
    return typeof value === 'string' ? value : undefined;
  };
  const title = editing ? `Edit CRM connection “${editing.name}”` : 'New CRM connection';
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      const settings: CreateBody['settings'] = { field_mapping: fieldMappingOf(formText(form, 'field_mapping')) };
      for (const setting of spec.settings) {
        const value = formText(form, `setting:${setting.name}`).trim();
        if (value) settings[setting.name] = value;
      }
      if (spec.grantType)
        settings.grant_type =
          form.get('setting:grant_type') === 'refresh_token' ? 'refresh_token' : 'client_credentials';
      if (spec.assignmentRules) settings.keep_assignment_rules = form.get('setting:keep_assignment_rules') === 'on';
      const credentials: NonNullable<CreateBody['credentials']> = {};
      for (const credential of spec.credentials) {
        const value = formText(form, `credential:${credential.name}`);
        if (value) credentials[credential.name] = value;
      }
      const common = { name: formText(form, 'name').trim(), enabled: form.get('enabled') === 'on', settings };
      if (editing) {
        // Credentials replace the stored ones whole, so they go only when the form has some.
        const body = Object.keys(credentials).length > 0 ? { ...common, credentials } : common;
        await call(api.PATCH('/api/crm/connections/{id}', { params: { path: { id: editing.id } }, body }));
      } else {
        await call(api.POST('/api/crm/connections', { body: { ...common, type, credentials } }));
      }
      onSaved();
    });
  };
  return (
    <form className="card" aria-label={title} onSubmit={submit}>
      <h2>{title}</h2>
      <div className="grid">
        <Field label="Name" name="name" required maxLength={200} autoFocus defaultValue={editing?.name} />
        <Select
          label="Type"
          name="type"
          value={type}
          disabled={editing !== undefined}
          onChange={(event) => setType(event.target.value as ConnectionType)}
          options={TYPE_NAMES.map((name) => [name, CRM_TYPES[name].label] as const)}
        />
      </div>
      {/* A new key per type: the fields of another type start empty. */}
      <fieldset key={type}>
        <legend>Settings</legend>
        <div className="grid">
          {spec.settings.map((setting) => (
            <Field
              key={setting.name}
              label={setting.label}
              name={`setting:${setting.name}`}
              type={setting.url ? 'url' : 'text'}
              required={setting.required}
              hint={setting.hint}
              defaultValue={storedText(setting.name)}
            />
          ))}
          {spec.grantType && (
            <Select
              label="Grant type"
              name="setting:grant_type"
              defaultValue={storedText('grant_type')}
              options={[
                ['client_credentials', 'Client credentials'],
                ['refresh_token', 'Refresh token'],
              ]}
            />
          )}
        </div>
        {spec.assignmentRules && (
          <Check
            label="Let Salesforce's assignment rules choose owners (unchecked: the owner routing chooses is kept, and a resync never reassigns a Lead)"
            name="setting:keep_assignment_rules"
            defaultChecked={stored.keep_assignment_rules === true}
          />
        )}
        <TextArea
          label="Field mapping (optional)"
          name="field_mapping"
          rows={3}
          className="mono"
          hint="One “CRM field = lead field” a line; empty: the type's default mapping."
          defaultValue={stored.field_mapping ? formatMappings(stored.field_mapping) : undefined}
        />
      </fieldset>
      <fieldset key={`${type}:credentials`}>
        <legend>
          {editing
            ? `Credentials (write-only; stored: ${editing.credential_fields.join(', ') || 'none'}; leave empty to keep them, or enter all of them to replace them)`
            : 'Credentials (write-only)'}
        </legend>
        <div className="grid">
          {spec.credentials.map((credential) => (
            <Field
              key={credential.name}
              label={credential.label}
              name={`credential:${credential.name}`}
              type="password"
              autoComplete="off"
              hint={credential.hint}
            />
          ))}
        </div>
      </fieldset>
      <Check label="Enabled" name="enabled" defaultChecked={editing?.enabled ?? true} />
      <Alert>{action.error}</Alert>
      <FormActions
        submitLabel={editing ? 'Save connection' : 'Create connection'}
        pending={action.pending}
        onCancel={onCancel}
      />
    </form>
  );
}
