/** Export of the leads shown (`exportLeads`, `getExport`): start, follow its progress, download the CSV (with vendor names beside vendor ids). */
import { useEffect, useRef, useState } from 'react';
import type { Schemas } from '@leadstream/client';
import { api, call, downloadFile, errorText } from '../api/client';
import { currentEnvironment } from '../api/environment';
import { useAction } from '../components/use-load';
import { Alert } from '../components/ui';
import type { LeadFilters } from './lead-filters';
import { nextDay } from './lead-filters';

type ExportState = Schemas['Export'];

export function ExportPanel({ filters }: { filters: LeadFilters }) {
  const action = useAction();
  const [state, setState] = useState<ExportState | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const poll = (id: string) => {
    timer.current = setTimeout(() => {
      call(api.GET('/api/exports/{export_id}', { params: { path: { export_id: id } } })).then(
        (next) => {
          setState(next);
          if (next.status === 'processing') poll(id);
        },
        (error: unknown) => setPollError(errorText(error)),
      );
    }, 700);
  };

  const start = () =>
    void action.run(async () => {
      setPollError(null);
      const body = {
        format: 'csv' as const,
        filters: { ...filters, ...(filters.end_date ? { end_date: nextDay(filters.end_date) } : {}) },
      };
      const started = await call(api.POST('/api/leads/export', { body }));
      setState({
        export_id: started.export_id,
        status: 'processing',
        download_url: null,
        estimated_completion: started.estimated_completion,
      });
      poll(started.export_id);
    });

  const download = (id: string) =>
    void action.run(() => downloadFile(`/api/exports/${encodeURIComponent(id)}/download`, `leads-${id}.csv`));

  // Exports hold live leads; the sandbox's are looked at, not exported (src/api/environment.ts).
  if (currentEnvironment() === 'sandbox') return null;
  return (
    <div className="export">
      <button type="button" onClick={start} disabled={action.pending || state?.status === 'processing'}>
        Export CSV
      </button>
      <div aria-live="polite" className="export-status">
        {state?.status === 'processing' && (
          <span>
            <progress aria-label="Export progress" /> Preparing the export…
          </span>
        )}
        {state?.status === 'completed' && (
          <span>
            Ready: {state.row_count ?? 0} lead{state.row_count === 1 ? '' : 's'}.{' '}
            <button type="button" className="primary" onClick={() => download(state.export_id)}>
              Download CSV
            </button>
          </span>
        )}
        {(state?.status === 'failed' || state?.status === 'expired') && (
          <span>The export {state.status}. Start a new one.</span>
        )}
      </div>
      <Alert>{action.error ?? pollError}</Alert>
    </div>
  );
}
