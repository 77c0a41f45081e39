/**
 * Leads (operations tagged Leads): GET /api/leads with search, filters, sorting and paging, all
 * kept in the address so a view can be bookmarked or shared; an export of the same filters (POST
 * /api/leads/export, then GET /api/exports/:id until it is ready, then the download).
 */
import { useEffect, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { useAction, useConfirmedAction, useLoad } from '../components/use-load';
import { Alert, Field, Loading, PageHeader, Select, StatusBadge, formatDateTime } from '../components/ui';
import { ExportPanel } from './export.panel';
import { NewLeadForm } from './new-lead.form';
import { nextDay, type LeadFilters } from './lead-filters';
import { LEAD_STATUSES, type LeadStatus } from './lead-statuses';

type SortField =
  'created_at' | 'updated_at' | 'email' | 'first_name' | 'last_name' | 'status' | 'source' | 'program' | 'vendor_id';
const COLUMNS: ReadonlyArray<{ field: SortField; label: string }> = [
  { field: 'email', label: 'Email' },
  { field: 'last_name', label: 'Name' },
  { field: 'status', label: 'Status' },
  { field: 'source', label: 'Source' },
  { field: 'vendor_id', label: 'Vendor' },
  { field: 'program', label: 'Program' },
  { field: 'created_at', label: 'Received' },
];
const FILTERS = ['search', 'status', 'source', 'vendor_id', 'program', 'start_date', 'end_date'] as const;

export function LeadsPage() {
  const [params, setParams] = useSearchParams();
  const role = currentSession()?.user.role;
  const page = Math.max(1, Number(params.get('page') ?? 1) || 1);
  const limit = Number(params.get('limit') ?? 20) || 20;
  const sortBy = (params.get('sortBy') ?? 'created_at') as SortField;
  const sortOrder = params.get('sortOrder') === 'asc' ? 'asc' : 'desc';
  const filters: LeadFilters = {};
  for (const name of FILTERS) {
    const value = params.get(name);
    if (value) (filters as Record<string, string>)[name] = value;
  }
  const leads = useLoad(
    () =>
      call(
        api.GET('/api/leads', {
          params: {
            query: {
              page,
              limit,
              sortBy,
              sortOrder,
              ...filters,
              // The list takes whole days as dates; the end day is included.
              ...(filters.end_date ? { end_date: nextDay(filters.end_date) } : {}),
            },
          },
        }),
      ),
    params.toString(),
  );
  const vendors = useLoad(
    async () => (can(role, 'vendors:read') ? (await call(api.GET('/api/vendors'))).data : []),
    'vendors',
  );
  const vendorName = (id: string | null) => (id ? (vendors.data?.find((vendor) => vendor.id === id)?.name ?? id) : '—');

  const update = (changes: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(changes)) {
      if (value) next.set(name, value);
      else next.delete(name);
    }
    if (!('page' in changes)) next.delete('page');
    setParams(next);
  };
  const sortOn = (field: SortField) =>
    update({ sortBy: field, sortOrder: sortBy === field && sortOrder === 'desc' ? 'asc' : 'desc' });

  // Bulk changes (POST /api/leads/bulk-update, /bulk-delete) on the selected rows of this page.
  const writable = can(role, 'leads:write');
  const [selected, setSelected] = useState<Set<string>>(new Set());
  const [adding, setAdding] = useState(false);
  const [bulkStatus, setBulkStatus] = useState<LeadStatus>('contacted');
  const bulk = useAction();
  const confirmedBulk = useConfirmedAction(bulk);
  const [bulkDone, setBulkDone] = useState<string | null>(null);
  useEffect(() => setSelected(new Set()), [params.toString()]);
  const pageIds = leads.data?.data.map((lead) => lead.id) ?? [];
  const toggleOne = (id: string) => {
    const next = new Set(selected);
    if (next.has(id)) next.delete(id);
    else next.add(id);
    setSelected(next);
  };
  const applyStatus = () =>
    void bulk.run(async () => {
      const answer = await call(
        api.POST('/api/leads/bulk-update', { body: { lead_ids: [...selected], updates: { status: bulkStatus } } }),
      );
      setBulkDone(
        `${answer.updated} lead${answer.updated === 1 ? '' : 's'} set to ${bulkStatus}${answer.failed ? `, ${answer.failed} failed` : ''}.`,
      );
      setSelected(new Set());
      leads.reload();
    });
  const deleteSelected = () =>
    confirmedBulk(
      `Delete ${selected.size} lead${selected.size === 1 ? '' : 's'}? They are kept as deleted records.`,
      async () => {
        const answer = await call(api.POST('/api/leads/bulk-delete', { body: { lead_ids: [...selected] } }));
        setBulkDone(
          `${answer.deleted} lead${answer.deleted === 1 ? '' : 's'} deleted${answer.failed ? `, ${answer.failed} failed` : ''}.`,
        );
        setSelected(new Set());
        leads.reload();
      },
    );

  // The search box applies after a short pause in typing.
  const [search, setSearch] = useState(filters.search ?? '');
  useEffect(() => {
    if ((filters.search ?? '') === search) return;
    const timer = setTimeout(() => update({ search: search.trim() || null }), 300);
    return () => clearTimeout(timer);
  }, [search]);

  const meta = leads.data?.meta;
  return (
    <section>
      <PageHeader title="Leads">
        {writable && !adding && (
          <button type="button" onClick={() => setAdding(true)}>
            New lead
          </button>
        )}
        <ExportPanel filters={filters} />
      </PageHeader>
      {adding && <NewLeadForm vendors={vendors.data ?? []} onClose={() => setAdding(false)} />}
      {/* Aligned by their tops, so the inputs line up above the search box's hint. */}
      <form
        className="filters"
        style={{ alignItems: 'start' }}
        role="search"
        aria-label="Filter leads"
        onSubmit={(event: FormEvent) => event.preventDefault()}
      >
        <Field
          label="Search"
          type="search"
          placeholder="Email, name or phone"
          hint="Any part of an email or name (3+ letters, accents ignored) or 4+ digits of a phone"
          value={search}
          onChange={(event) => setSearch(event.target.value)}
        />
        <Select
          label="Status"
          value={filters.status ?? ''}
          onChange={(event) => update({ status: event.target.value || null })}
          options={[['', 'Any status'], ...LEAD_STATUSES.map((status) => [status, status] as const)]}
        />
        {vendors.data && vendors.data.length > 0 ? (
          <Select
            label="Vendor"
            value={filters.vendor_id ?? ''}
            onChange={(event) => update({ vendor_id: event.target.value || null })}
            options={[['', 'Any vendor'], ...vendors.data.map((vendor) => [vendor.id, vendor.name] as const)]}
          />
        ) : null}
        <Field
          label="Source"
          defaultValue={filters.source ?? ''}
          onBlur={(event) => update({ source: event.target.value.trim() || null })}
        />
        <Field
          label="Program"
          defaultValue={filters.program ?? ''}
          onBlur={(event) => update({ program: event.target.value.trim() || null })}
        />
        <Field
          label="Received from"
          type="date"
          value={filters.start_date ?? ''}
          onChange={(event) => update({ start_date: event.target.value || null })}
        />
        <Field
          label="Received until"
          type="date"
          value={filters.end_date ?? ''}
          onChange={(event) => update({ end_date: event.target.value || null })}
        />
      </form>
      <Alert>{leads.error ?? bulk.error}</Alert>
      <Alert tone="success">{bulkDone}</Alert>
      {writable && selected.size > 0 && (
        <div className="bulk card" role="region" aria-label="Selected leads">
          <strong>{selected.size} selected</strong>
          <Select
            label="New status"
            value={bulkStatus}
            onChange={(event) => setBulkStatus(event.target.value as LeadStatus)}
            options={LEAD_STATUSES.map((status) => [status, status] as const)}
          />
          <button type="button" className="primary" onClick={applyStatus} disabled={bulk.pending}>
            Set status
          </button>
          <button type="button" className="danger" onClick={deleteSelected} disabled={bulk.pending}>
            Delete selected
          </button>
          <button type="button" onClick={() => setSelected(new Set())}>
            Clear selection
          </button>
        </div>
      )}
      {!leads.data ? (
        leads.error ? null : (
          <Loading what="leads" />
        )
      ) : (
        <div className="table-wrap">
          <table className="data leads" aria-busy={leads.loading}>
            <caption className="visually-hidden">
              Leads, sorted by {sortBy} {sortOrder === 'asc' ? 'ascending' : 'descending'}
            </caption>
            <thead>
              <tr>
                {writable && (
                  <th scope="col" className="select">
                    <input
                      type="checkbox"
                      aria-label="Select every lead of this page"
                      checked={pageIds.length > 0 && pageIds.every((id) => selected.has(id))}
                      onChange={(event) => setSelected(event.target.checked ? new Set(pageIds) : new Set())}
                    />
                  </th>
                )}
                {COLUMNS.map((column) => (
                  <th
                    key={column.field}
                    scope="col"
                    aria-sort={sortBy === column.field ? (sortOrder === 'asc' ? 'ascending' : 'descending') : 'none'}
                  >
                    <button type="button" className="sort" onClick={() => sortOn(column.field)}>
                      {column.label}
                      <span aria-hidden="true">
                        {sortBy === column.field ? (sortOrder === 'asc' ? ' ▲' : ' ▼') : ''}
                      </span>
                    </button>
                  </th>
                ))}
              </tr>
            </thead>
            <tbody>
              {leads.data?.data.map((lead: Schemas['LeadSummary']) => (
                <tr key={lead.id}>
                  {writable && (
                    <td className="select">
                      <input
                        type="checkbox"
                        aria-label={`Select ${lead.email}`}
                        checked={selected.has(lead.id)}
                        onChange={() => toggleOne(lead.id)}
                      />
                    </td>
                  )}
                  <td>
                    <Link to={`/leads/${encodeURIComponent(lead.id)}`}>{lead.email}</Link>
                  </td>
                  <td>{[lead.first_name, lead.last_name].filter(Boolean).join(' ') || '—'}</td>
                  <td>
                    <StatusBadge status={lead.status} />
                  </td>
                  <td>{lead.source ?? '—'}</td>
                  <td>{vendorName(lead.vendor_id)}</td>
                  <td>{lead.program ?? lead.program_interest ?? '—'}</td>
                  <td>
                    <time dateTime={lead.created_at} title={formatDateTime(lead.created_at)}>
                      {new Date(lead.created_at).toLocaleString(undefined, {
                        month: 'short',
                        day: 'numeric',
                        hour: '2-digit',
                        minute: '2-digit',
                      })}
                    </time>
                  </td>
                </tr>
              ))}
              {leads.data?.data.length === 0 && (
                <tr>
                  <td colSpan={COLUMNS.length + 1} className="empty">
                    No lead matches.{' '}
                    {Object.keys(filters).length === 0 &&
                      'Leads appear here as soon as a vendor sends them with an API key.'}
                  </td>
                </tr>
              )}
            </tbody>
          </table>
        </div>
      )}
      {meta && (
        <nav className="pager" aria-label="Pages">
          <button type="button" disabled={page <= 1} onClick={() => update({ page: String(page - 1) })}>
            Previous
          </button>
          <span role="status">
            Page {meta.page} of {Math.max(1, meta.totalPages)} · {meta.total} lead{meta.total === 1 ? '' : 's'}
          </span>
          <button type="button" disabled={page >= meta.totalPages} onClick={() => update({ page: String(page + 1) })}>
            Next
          </button>
          <Select
            label="Per page"
            value={String(limit)}
            onChange={(event) => update({ limit: event.target.value })}
            options={['20', '50', '100'].map((value) => [value, value] as const)}
          />
        </nav>
      )}
    </section>
  );
}
