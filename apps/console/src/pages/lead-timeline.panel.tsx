/**
 * A lead's stages as a waterfall (GET /api/leads/:id/timeline, docs/timeline.md): one row per
 * stage, its bar placed on a time axis from the submission to the last stage's end, the outcome in
 * words and the time the stage took. The exact times are in each bar's title.
 */
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { useLoad } from '../components/use-load';
import { Alert, formatDateTime } from '../components/ui';

type TimelineEntry = Schemas['TimelineEntry'];

const STAGE_NAMES: Record<string, string> = {
  received: 'Received',
  validated: 'Validation',
  deduplicated: 'Deduplication',
  enriched: 'Enrichment',
  routed: 'Routing',
  reviewed: 'Review',
  crm_synced: 'CRM sync',
  webhook_delivered: 'Webhook delivery',
};

const OUTCOME_WORDS: Record<string, Record<string, string>> = {
  received: { received: 'Submission received' },
  validated: {
    passed: 'Passed validation',
    flagged: 'Flagged for review',
    failed: 'Failed validation',
    rejected: 'Rejected',
  },
  deduplicated: {
    unique: 'Not a duplicate',
    duplicate: 'Duplicate of an earlier lead',
    linked: 'Linked to an earlier lead',
    rejected: 'Rejected',
  },
  enriched: { completed: 'Enrichment rules applied', skipped: 'Enrichment skipped', rejected: 'Rejected by a rule' },
  routed: {
    routed: 'Routed to a CRM',
    'no target': 'No CRM to send it to',
    'held for review': 'Held for review',
    rejected: 'Rejected',
  },
  reviewed: { approved: 'Approved', rejected: 'Rejected' },
  crm_synced: { synced: 'Synced to the CRM', failed: 'CRM sync failed', 'retry scheduled': 'CRM sync will be retried' },
  webhook_delivered: { delivered: 'Webhook delivered', failed: 'Webhook delivery failed' },
};

export function stageName(stage: string): string {
  return STAGE_NAMES[stage] ?? sentence(stage);
}

export function outcomeWords(stage: string, outcome: string): string {
  return OUTCOME_WORDS[stage]?.[outcome] ?? sentence(outcome);
}

/** A duration as people read it: 12 ms, 1.4 s, 3 min. */
export function durationText(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  if (ms < 3_600_000) return `${Math.round(ms / 60_000)} min`;
  return `${(ms / 3_600_000).toFixed(1)} h`;
}

function sentence(text: string): string {
  const words = text.replace(/_/g, ' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export function LeadTimelinePanel({ leadId, round }: { leadId: string; round: number }) {
  const timeline = useLoad(
    () => call(api.GET('/api/leads/{id}/timeline', { params: { path: { id: leadId } } })).then((answer) => answer.data),
    `${leadId}:${round}`,
  );
  const entries: TimelineEntry[] = timeline.data ?? [];
  const start = Math.min(...entries.map((entry) => Date.parse(entry.started_at)));
  const end = Math.max(...entries.map((entry) => Date.parse(entry.finished_at)));
  const span = Math.max(1, end - start);
  return (
    <section aria-labelledby="lead-stages" className="waterfall-panel">
      <h2 id="lead-stages">Stages</h2>
      <Alert>{timeline.error}</Alert>
      {timeline.data && entries.length === 0 && <p className="muted">No stage has recorded its times yet.</p>}
      {entries.length > 0 && (
        <>
          <ol className="waterfall" aria-label="Stage timeline">
            {entries.map((entry, index) => {
              const left = ((Date.parse(entry.started_at) - start) / span) * 100;
              const width = Math.max((entry.duration_ms / span) * 100, 0.5);
              return (
                <li
                  key={`${entry.stage}:${index}`}
                  className={`waterfall-row outcome-${entry.outcome.replace(/\W+/g, '-')}`}
                >
                  <span className="waterfall-stage">{stageName(entry.stage)}</span>
                  <span className="waterfall-track" aria-hidden="true">
                    <span
                      className="waterfall-bar"
                      style={{
                        left: `${Math.min(left, 99.5)}%`,
                        width: `${Math.min(width, 100 - Math.min(left, 99.5))}%`,
                      }}
                      title={`${formatDateTime(entry.started_at)} – ${formatDateTime(entry.finished_at)}`}
                    />
                  </span>
                  <span className="waterfall-outcome">{outcomeWords(entry.stage, entry.outcome)}</span>
                  <span className="waterfall-duration">{durationText(entry.duration_ms)}</span>
                </li>
              );
            })}
          </ol>
          <p className="waterfall-axis muted" aria-label="Time axis">
            <span>0 ms</span>
            <span>{durationText(span)}</span>
          </p>
        </>
      )}
    </section>
  );
}
