/**
 * The timeline latencies on /metrics (docs/timeline.md): for each timeline entry a committed batch
 * added to a lead, its time in the stage and the wait before it (since the entry before), and the
 * end-to-end latencies from the submission to the intake's decision and to the CRM. Labelled by
 * stage only. Observed after the commit, so a batch decided again counts once.
 */
import { timelineOf, type LeadTimelineEntry } from '@leadstream/domain';
import type { Metrics } from '@leadstream/runtime';
import type { BatchWrite } from '../batch/batch-write';

const INTAKE = new Set(['validated', 'deduplicated', 'enriched', 'routed']);
const DECIDED_OUTCOMES = new Set(['rejected', 'duplicate']);

export function observeTimelines(
  metrics: Pick<Metrics, 'leadStageDuration' | 'leadStageWait' | 'leadSubmissionToDecision' | 'leadSubmissionToCrm'>,
  write: Pick<BatchWrite, 'leads'>,
): void {
  for (const { lead, previous } of write.leads) {
    const timeline = timelineOf(lead);
    if (timeline.length === 0) continue;
    const before = new Set<LeadTimelineEntry>(previous ? timelineOf(previous) : []);
    const submitted = Date.parse(lead.submitted_at);
    timeline.forEach((entry, index) => {
      if (before.has(entry)) return;
      metrics.leadStageDuration.observe({ stage: entry.stage }, entry.duration_ms / 1000);
      const prior = timeline[index - 1];
      if (prior) {
        const wait = Date.parse(entry.started_at) - Date.parse(prior.finished_at);
        metrics.leadStageWait.observe({ stage: entry.stage }, Math.max(0, wait) / 1000);
      }
      const finished = Date.parse(entry.finished_at);
      if (!Number.isFinite(submitted)) return;
      if (INTAKE.has(entry.stage) && (entry.stage === 'routed' || DECIDED_OUTCOMES.has(entry.outcome)))
        metrics.leadSubmissionToDecision.observe(Math.max(0, finished - submitted) / 1000);
      if (entry.stage === 'crm_synced' && entry.outcome === 'synced')
        metrics.leadSubmissionToCrm.observe(Math.max(0, finished - submitted) / 1000);
    });
  }
}
