/**
 * Vendors (GET/POST/PUT/DELETE /api/vendors, enable, disable) and the funnel links between an
 * inquiry vendor and an application vendor (docs/analytics.md "Funnel"), which the funnel dashboard
 * needs to count conversions.
 */
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router-dom';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { DataTable, ListState } from '../components/list';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import {
  Alert,
  Field,
  FormActions,
  PageHeader,
  RowAction,
  Select,
  formatDateTime,
  formatMoney,
} from '../components/ui';
import { formText } from '../components/form-text';

type Vendor = Schemas['Vendor'];

export function VendorsPage() {
  const role = currentSession()?.user.role;
  const writable = can(role, 'vendors:write');
  const vendors = useLoad(async () => (await call(api.GET('/api/vendors'))).data, 'vendors');
  const action = useAction();
  const confirmed = useConfirmedAction(action);
  // null: no form; 'new': adding one; a vendor: editing it (PUT replaces every field).
  const [editing, setEditing] = useState<Vendor | 'new' | null>(null);
  const creating = editing !== null;
  const setCreating = (open: boolean) => setEditing(open ? 'new' : null);

  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const form = new FormData(formElement);
    const text = (name: string) => formText(form, name).trim() || null;
    const cost = text('cost_per_lead');
    void action
      .run(async () => {
        const body = {
          name: text('name') ?? '',
          type: form.get('type') === 'application' ? ('application' as const) : ('inquiry' as const),
          group: text('group'),
          contact_email: text('contact_email'),
          cost_per_lead: cost === null ? null : Number(cost),
        };
        if (editing && editing !== 'new')
          await call(
            api.PUT('/api/vendors/{id}', {
              params: { path: { id: editing.id } },
              body: { ...body, enabled: editing.enabled },
            }),
          );
        else await call(api.POST('/api/vendors', { body }));
      })
      .then((ok) => {
        if (!ok) return;
        formElement.reset();
        setCreating(false);
        vendors.reload();
      });
  };
  const toggle = (vendor: Vendor) =>
    void action.run(async () => {
      const path = { params: { path: { id: vendor.id } } };
      await call(
        vendor.enabled ? api.POST('/api/vendors/{id}/disable', path) : api.POST('/api/vendors/{id}/enable', path),
      );
      vendors.reload();
    });
  const remove = (vendor: Vendor) =>
    confirmed(`Delete the vendor ${vendor.name}?`, async () => {
      await call(api.DELETE('/api/vendors/{id}', { params: { path: { id: vendor.id } } }));
      vendors.reload();
    });

  return (
    <section>
      <PageHeader title="Vendors">
        {writable && !creating && (
          <button type="button" className="primary" onClick={() => setCreating(true)}>
            Add vendor
          </button>
        )}
      </PageHeader>
      <p className="muted">
        Vendors send leads with <Link to="/api-keys">API keys</Link>. Inquiry vendors bring prospective students;
        application vendors bring their applications.
      </p>
      <Alert>{action.error ?? vendors.error}</Alert>
      {creating && (
        <form
          className="card"
          aria-label={editing === 'new' ? 'New vendor' : `Edit ${editing.name}`}
          onSubmit={create}
          key={editing === 'new' ? 'new' : editing.id}
        >
          <h2>{editing === 'new' ? 'New vendor' : `Edit ${editing.name}`}</h2>
          <div className="grid">
            <Field
              label="Name"
              name="name"
              required
              maxLength={200}
              autoFocus
              defaultValue={editing === 'new' ? '' : editing.name}
            />
            <Select
              label="Type"
              name="type"
              defaultValue={editing === 'new' ? 'inquiry' : editing.type}
              options={[
                ['inquiry', 'Inquiry'],
                ['application', 'Application'],
              ]}
            />
            <Field
              label="Group (optional)"
              name="group"
              maxLength={100}
              defaultValue={editing === 'new' ? '' : (editing.group ?? '')}
            />
            <Field
              label="Contact email (optional)"
              name="contact_email"
              type="email"
              defaultValue={editing === 'new' ? '' : (editing.contact_email ?? '')}
            />
            <Field
              label="Cost per lead (optional)"
              name="cost_per_lead"
              type="number"
              min={0}
              step="0.01"
              defaultValue={editing === 'new' ? '' : (editing.cost_per_lead ?? '')}
            />
          </div>
          <FormActions
            submitLabel={editing === 'new' ? 'Create vendor' : 'Save vendor'}
            pending={action.pending}
            onCancel={() => setCreating(false)}
          />
        </form>
      )}
      <ListState loaded={vendors} what="vendors">
        {(data) => (
          <DataTable
            rows={data}
            columns={['Name', 'Type', 'Group', 'Cost per lead', 'State', 'Created', writable && 'Actions']}
            empty="No vendor yet. Add one, then give it an API key."
          >
            {(vendor) => (
              <tr key={vendor.id}>
                <td>
                  <bdi>{vendor.name}</bdi>
                </td>
                <td>{vendor.type}</td>
                <td>
                  <bdi>{vendor.group ?? '—'}</bdi>
                </td>
                <td>{formatMoney(vendor.cost_per_lead)}</td>
                <td>{vendor.enabled ? 'Enabled' : 'Disabled'}</td>
                <td>{formatDateTime(vendor.created_at)}</td>
                {writable && (
                  <td className="actions">
                    <RowAction label="Edit" name={vendor.name} onClick={() => setEditing(vendor)} />
                    <RowAction
                      label={vendor.enabled ? 'Disable' : 'Enable'}
                      name={vendor.name}
                      onClick={() => toggle(vendor)}
                    />
                    <RowAction label="Delete" name={vendor.name} onClick={() => remove(vendor)} danger />
                  </td>
                )}
              </tr>
            )}
          </DataTable>
        )}
      </ListState>
      {vendors.data && <FunnelLinks vendors={vendors.data} writable={writable} />}
    </section>
  );
}

function FunnelLinks({ vendors, writable }: { vendors: Vendor[]; writable: boolean }) {
  const links = useLoad(async () => (await call(api.GET('/api/vendor-funnel-links'))).data, `links:${vendors.length}`);
  const action = useAction();
  const inquiry = vendors.filter((vendor) => vendor.type === 'inquiry');
  const application = vendors.filter((vendor) => vendor.type === 'application');
  const create = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    void action.run(async () => {
      await call(
        api.POST('/api/vendor-funnel-links', {
          body: {
            inquiryVendorId: formText(form, 'inquiry'),
            applicationVendorId: formText(form, 'application'),
            timeWindowHours: Number(formText(form, 'hours')) || 24,
          },
        }),
      );
      links.reload();
    });
  };
  const remove = (id: string) =>
    void action.run(async () => {
      await call(api.DELETE('/api/vendor-funnel-links/{id}', { params: { path: { id } } }));
      links.reload();
    });
  return (
    <>
      <h2>Funnel links</h2>
      <p className="muted">
        An inquiry converts when the linked application vendor sends the same person within the time window. The funnel
        dashboard counts these.
      </p>
      <Alert>{action.error ?? links.error}</Alert>
      {writable && inquiry.length > 0 && application.length > 0 && (
        <form className="inline-form card" aria-label="New funnel link" onSubmit={create}>
          <Select
            label="Inquiry vendor"
            name="inquiry"
            options={inquiry.map((vendor) => [vendor.id, vendor.name] as const)}
          />
          <Select
            label="Application vendor"
            name="application"
            options={application.map((vendor) => [vendor.id, vendor.name] as const)}
          />
          <Field label="Time window (hours)" name="hours" type="number" min={1} max={8760} defaultValue={24} />
          <button type="submit" className="primary" disabled={action.pending}>
            Link vendors
          </button>
        </form>
      )}
      {writable && (inquiry.length === 0 || application.length === 0) && (
        <p className="muted">Add an inquiry vendor and an application vendor to link them.</p>
      )}
      {links.data && links.data.length > 0 && (
        <DataTable
          rows={links.data}
          columns={['Inquiry vendor', 'Application vendor', 'Window', writable && 'Actions']}
        >
          {(link) => (
            <tr key={link.id}>
              <td>{link.inquiryVendorName}</td>
              <td>{link.applicationVendorName}</td>
              <td>{link.timeWindowHours} h</td>
              {writable && (
                <td>
                  <button type="button" className="danger" onClick={() => remove(link.id)}>
                    Remove link
                  </button>
                </td>
              )}
            </tr>
          )}
        </DataTable>
      )}
    </>
  );
}
