/**
 * Reprocessing from the rules and routing pages (docs/reprocessing.md): "Preview the effect" runs
 * a dry run of the current rules over the leads already received and shows its counts per field;
 * "Apply to existing leads" runs it for real (after a confirmation). Both follow the job until it
 * ends; a running job can be cancelled.
 */
import { useEffect, useRef, useState } from 'react';
import { api, call, errorText } from '../api/client';
import { useAction } from '../components/use-load';
import { Alert } from '../components/ui';

type Stage = 'enrich' | 'route' | 'crm-sync';

interface Job {
  id: string;
  status: 'queued' | 'running' | 'completed' | 'cancelled' | 'failed';
  dry_run: boolean;
  total: number | null;
  done: number;
  changed: number;
  failed: number;
  crm_syncs: number;
  field_counts: Record<string, number>;
}

const FIELD_NAMES: Record<string, string> = {
  routing: 'Route',
  enrichment_data: 'Enrichment data',
  custom_fields: 'Custom fields',
  calculated_fields: 'Calculated fields',
};

const running = (job: Job | null) => job?.status === 'queued' || job?.status === 'running';
const plural = (count: number, noun: string) => `${count} ${noun}${count === 1 ? '' : 's'}`;

export function ReprocessPanel({ stages, what }: { stages: Stage[]; what: string }) {
  const action = useAction();
  const [job, setJob] = useState<Job | null>(null);
  const [pollError, setPollError] = useState<string | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  const poll = (id: string) => {
    timer.current = setTimeout(() => {
      call(api.GET('/api/reprocess/{id}', { params: { path: { id } } })).then(
        (next) => {
          setJob(next.data);
          if (running(next.data)) poll(id);
        },
        (error: unknown) => setPollError(errorText(error)),
      );
    }, 700);
  };

  const start = (dryRun: boolean) => {
    if (
      !dryRun &&
      !window.confirm(`Apply the current ${what} to every lead already received? Changed leads are updated.`)
    )
      return;
    void action.run(async () => {
      setPollError(null);
      const started = await call(api.POST('/api/reprocess', { body: { stages, dry_run: dryRun } }));
      setJob(started.data);
      poll(started.data.id);
    });
  };

  const cancel = () =>
    void action.run(async () => {
      if (!job) return;
      const answer = await call(api.POST('/api/reprocess/{id}/cancel', { params: { path: { id: job.id } } }));
      setJob(answer.data);
    });

  const fields = Object.entries(job?.field_counts ?? {}).sort(([a], [b]) => a.localeCompare(b));
  return (
    <div className="reprocess" aria-label="Reprocessing">
      <button type="button" onClick={() => start(true)} disabled={action.pending || running(job)}>
        Preview the effect
      </button>{' '}
      <button type="button" onClick={() => start(false)} disabled={action.pending || running(job)}>
        Apply to existing leads
      </button>
      <div aria-live="polite" className="reprocess-status">
        {job && running(job) && (
          <p>
            <progress
              aria-label="Reprocessing progress"
              max={job.total ?? undefined}
              value={job.total ? job.done : undefined}
            />{' '}
            {job.dry_run ? 'Previewing' : 'Applying'}: {job.done} of {job.total ?? '…'} leads looked at.{' '}
            <button type="button" onClick={cancel} disabled={action.pending}>
              Cancel
            </button>
          </p>
        )}
        {job && !running(job) && (
          <div>
            <p>
              {job.status === 'completed'
                ? job.dry_run
                  ? `Preview: ${plural(job.changed, 'lead')} of ${job.done} would change${job.crm_syncs > 0 ? `, ${plural(job.crm_syncs, 'lead')} would be synced to a new CRM target` : ''}. Nothing was changed.`
                  : `Applied: ${plural(job.changed, 'lead')} of ${job.done} changed${job.crm_syncs > 0 ? `, ${plural(job.crm_syncs, 'lead')} sent to a new CRM target` : ''}${job.failed > 0 ? `, ${job.failed} could not be updated` : ''}.`
                : job.status === 'cancelled'
                  ? `Cancelled after ${job.done} of ${job.total ?? '…'} leads (${plural(job.changed, 'lead')} ${job.dry_run ? 'would change' : 'changed'}).`
                  : 'The job failed; start it again.'}
            </p>
            {fields.length > 0 && (
              <table className="reprocess-counts">
                <thead>
                  <tr>
                    <th scope="col">Field</th>
                    <th scope="col">Leads</th>
                  </tr>
                </thead>
                <tbody>
                  {fields.map(([field, count]) => (
                    <tr key={field}>
                      <td>{FIELD_NAMES[field] ?? field}</td>
                      <td>{count}</td>
                    </tr>
                  ))}
                </tbody>
              </table>
            )}
          </div>
        )}
      </div>
      <Alert>{action.error ?? pollError}</Alert>
    </div>
  );
}
