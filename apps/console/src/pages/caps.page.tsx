/**
 * Volume caps (docs/caps.md): how many accepted leads the organization, or one vendor, may take per
 * hour, day, week or month in the cap's time zone. Each cap shows where its current period stands
 * (GET /api/caps/:id/usage). Owners and admins make, enable, disable and delete caps; managers and
 * viewers read them. Conditions (only matching leads count) are set through the API.
 */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { formText } from '../components/form-text';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Field, FormActions, PageHeader, RowAction, Select, formatDateTime } from '../components/ui';

type Units = 'hour' | 'day' | 'week' | 'month';

interface Cap {
  id: string;
  name: string;
  scope: 'organization' | 'vendor';
  vendor_id: string | null;
  maximum: number;
  duration: number;
  duration_units: Units;
  time_zone: string;
  conditions: unknown;
  reason: string;
  enabled: boolean;
}

interface Usage {
  period_start: string;
  period_end: string;
  count: number;
  remaining: number;
}

const UNITS = [
  ['day', 'Day (resets at local midnight)'],
  ['week', 'Week (resets at the end of Sunday)'],
  ['month', 'Month (resets at the end of the month)'],
  ['hour', 'Hour'],
] as const;

/** "50 per day", "200 per 2 weeks". */
function perText(cap: Pick<Cap, 'maximum' | 'duration' | 'duration_units'>): string {
  return cap.duration === 1
    ? `${cap.maximum} per ${cap.duration_units}`
    : `${cap.maximum} per ${cap.duration} ${cap.duration_units}s`;
}

function browserZone(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

export function CapsPage() {
  const role = currentSession()?.user.role;
  const writable = can(role, 'caps:write');
  const caps = useLoad(async () => {
    const list = (await call(api.GET('/api/caps'))).data as Cap[];
    const usages = await Promise.all(
      list.map(
        async (cap) =>
          (await call(api.GET('/api/caps/{id}/usage', { params: { path: { id: cap.id } } }))).data as Usage,
      ),
    );
    return list.map((cap, index) => ({ cap, usage: usages[index]! }));
  }, 'caps');
  const vendors = useLoad(
    async () => (can(role, 'vendors:read') ? (await call(api.GET('/api/vendors'))).data : []),
    'vendors',
  );
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  const [creating, setCreating] = useState(false);
  const [scope, setScope] = useState<Cap['scope']>('organization');
  const vendorName = (id: string | null) => (vendors.data ?? []).find((vendor) => vendor.id === id)?.name ?? id ?? '';

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const reason = formText(form, 'reason').trim();
    void action.run(async () => {
      await call(
        api.POST('/api/caps', {
          body: {
            name: formText(form, 'name'),
            scope,
            vendor_id: scope === 'vendor' ? formText(form, 'vendor_id') : null,
            maximum: Number(formText(form, 'maximum')),
            duration: Number(formText(form, 'duration')),
            duration_units: formText(form, 'duration_units') as Units,
            time_zone: formText(form, 'time_zone').trim(),
            ...(reason === '' ? {} : { reason }),
          },
        }),
      );
      setCreating(false);
      caps.reload();
    });
  };

  const toggle = (cap: Cap) =>
    void action.run(async () => {
      await call(api.PATCH('/api/caps/{id}', { params: { path: { id: cap.id } }, body: { enabled: !cap.enabled } }));
      caps.reload();
    });

  const remove = (cap: Cap) =>
    confirmed(`Delete the cap ${cap.name}?`, async () => {
      await call(api.DELETE('/api/caps/{id}', { params: { path: { id: cap.id } } }));
      caps.reload();
    });

  return (
    <section>
      <PageHeader title="Volume caps">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            New cap
          </button>
        )}
      </PageHeader>
      <p className="muted">
        A lead that would go over a cap is rejected with the cap&apos;s reason (<code>cap_reached</code> by default).
        Only live leads that would otherwise be accepted count; organization caps are checked before vendor caps.
      </p>
      <Alert>{action.error ?? caps.error}</Alert>
      {creating && (
        <form className="card" aria-label="New cap" onSubmit={create}>
          <div className="grid">
            <Field label="Name" name="name" required maxLength={200} autoFocus />
            <Select
              label="Applies to"
              name="scope"
              options={[
                ['organization', 'All leads of the organization'],
                ['vendor', 'One vendor'],
              ]}
              value={scope}
              onChange={(event) => setScope(event.target.value as Cap['scope'])}
            />
            {scope === 'vendor' && (
              <Select
                label="Vendor"
                name="vendor_id"
                required
                options={(vendors.data ?? []).map((vendor) => [vendor.id, vendor.name] as const)}
              />
            )}
            <Field label="Maximum leads" name="maximum" type="number" min={0} max={100000} required />
            <Field label="Every" name="duration" type="number" min={1} max={1000} defaultValue={1} required />
            <Select label="Period" name="duration_units" options={UNITS} defaultValue="day" />
            <Field label="Time zone" name="time_zone" defaultValue={browserZone()} required maxLength={64} />
            <Field label="Reason (optional)" name="reason" maxLength={64} hint="Empty: cap_reached." />
          </div>
          <FormActions submitLabel="Create cap" pending={action.pending} onCancel={() => setCreating(false)} />
        </form>
      )}
      <ListState loaded={caps} what="caps">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Name', 'Applies to', 'Limit', 'This period', 'Resets', 'Status', 'Actions']}
            empty="No cap yet."
          >
            {({ cap, usage }) => (
              <tr key={cap.id}>
                <td>{cap.name}</td>
                <td>{cap.scope === 'vendor' ? `Vendor ${vendorName(cap.vendor_id)}` : 'Organization'}</td>
                <td>
                  {perText(cap)} ({cap.time_zone}){cap.conditions ? ', matching leads only' : ''}
                </td>
                <td>
                  {usage.count} of {cap.maximum} ({usage.remaining} left)
                </td>
                <td>{formatDateTime(usage.period_end)}</td>
                <td>{cap.enabled ? 'Enabled' : 'Disabled'}</td>
                <td className="actions">
                  {writable && (
                    <RowAction label={cap.enabled ? 'Disable' : 'Enable'} name={cap.name} onClick={() => toggle(cap)} />
                  )}
                  {writable && <RowAction label="Delete" name={cap.name} onClick={() => remove(cap)} danger />}
                </td>
              </tr>
            )}
          </DataTable>
        )}
      </ListState>
    </section>
  );
}
