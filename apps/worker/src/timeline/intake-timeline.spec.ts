/**
 * The timeline entries the intake stages add (docs/timeline.md): validate's creation of a lead adds
 * `received` and `validated`, a command that changed nothing adds none, a rejection says so, and
 * the latencies on /metrics count only the entries a committed write added.
 */
import { appendTimelineEntry, timelineEntry, timelineOf, type LeadRecord } from '@leadstream/domain';
import { Metrics } from '@leadstream/runtime';
import type { LeadCommandMessage } from '@leadstream/schemas';
import { describe, expect, it } from 'vitest';
import { emptyBatchWrite } from '../batch/batch-write';
import { LeadBatch } from '../batch/lead-batch';
import { recordIntakeStage, withCrmSyncedEntry } from './intake-timeline';
import { observeTimelines } from './timeline-metrics';

const SUBMITTED = '2026-11-27T10:00:00.000Z';
const at = (ms: number) => new Date(Date.parse(SUBMITTED) + ms);

const lead = (set: Partial<LeadRecord> = {}): LeadRecord =>
  ({
    _id: 'lead_1',
    organization_id: 'org_1',
    environment: 'live',
    vendor_id: 'vendor_1',
    status: 'new',
    flags: [],
    rejection_reason: null,
    validation_status: 'passed',
    dedup_status: 'pending',
    enrichment_status: 'pending',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: 'pending',
    submitted_at: SUBMITTED,
    version: 1,
    applied_messages: [],
    outbox: [],
    ...set,
  }) as unknown as LeadRecord;

const message = {
  schema_version: 1,
  message_id: 'msg_1',
  correlation_id: 'corr_1',
  lead_id: 'lead_1',
  organization_id: 'org_1',
  environment: 'live',
  vendor_id: 'vendor_1',
  submitted_at: SUBMITTED,
} as unknown as LeadCommandMessage;

const tenant = { organizationId: 'org_1', environment: 'live' as const };

describe('intake timeline entries', () => {
  it('gives a lead validate creates its received and validated entries, with the times of each', () => {
    const batch = new LeadBatch();
    batch.put(lead(), []);
    recordIntakeStage(batch, 'validated', message, null, { timestamp: at(4).getTime() }, at(10), at(31));

    expect(timelineOf(batch.get(tenant, 'lead_1')!)).toEqual([
      {
        stage: 'received',
        outcome: 'received',
        started_at: SUBMITTED,
        finished_at: at(4).toISOString(),
        duration_ms: 4,
        detail: { vendor_id: 'vendor_1' },
      },
      {
        stage: 'validated',
        outcome: 'passed',
        started_at: at(10).toISOString(),
        finished_at: at(31).toISOString(),
        duration_ms: 21,
        detail: { validation_status: 'passed' },
      },
    ]);
  });

  it('adds nothing for a command that left the lead as it was (a redelivery)', () => {
    const stored = lead({ dedup_status: 'unique' });
    const batch = new LeadBatch();
    batch.load(stored);
    recordIntakeStage(batch, 'deduplicated', message, stored, { timestamp: 0 }, at(10), at(12));
    const write = emptyBatchWrite();
    batch.toWrite(write);
    expect(write.leads).toEqual([]);
  });

  it('says a stage rejected the lead, with the reason, and never gives a negative duration', () => {
    const stored = lead();
    const batch = new LeadBatch();
    batch.load(stored);
    batch.put(
      lead({
        status: 'duplicate',
        duplicate_of: 'lead_0',
        similarity_score: 1,
        rejection_reason: 'duplicate' as never,
      }),
      [],
    );
    // A clock that went back between entering and leaving the stage.
    recordIntakeStage(batch, 'deduplicated', message, stored, { timestamp: 0 }, at(50), at(40));
    expect(timelineOf(batch.get(tenant, 'lead_1')!)).toEqual([
      {
        stage: 'deduplicated',
        outcome: 'duplicate',
        started_at: at(50).toISOString(),
        finished_at: at(50).toISOString(),
        duration_ms: 0,
        detail: { dedup_status: 'pending', duplicate_of: 'lead_0', similarity_score: 1, rejection_reason: 'duplicate' },
      },
    ]);
  });

  it('names a CRM sync that will be retried', () => {
    const synced = withCrmSyncedEntry(
      lead({ crm_sync_status: 'pending' }),
      [{ connection_id: 'crm_1', crm_type: 'hubspot', status: 'retry_scheduled', attempts: 1, crm_id: null }],
      at(100),
      at(180),
    );
    expect(timelineOf(synced)).toMatchObject([{ stage: 'crm_synced', outcome: 'retry scheduled', duration_ms: 80 }]);
  });
});

describe('timeline latencies on /metrics', () => {
  it('observes the entries a write added, the wait before each, and the end-to-end latencies, labelled by stage', async () => {
    const metrics = new Metrics({ defaultMetrics: false });
    let previous = appendTimelineEntry(lead(), timelineEntry('received', 'received', at(0), at(5)));
    previous = appendTimelineEntry(previous, timelineEntry('validated', 'passed', at(10), at(30)));
    const routed = appendTimelineEntry(
      appendTimelineEntry(previous, timelineEntry('deduplicated', 'unique', at(30), at(40))),
      timelineEntry('routed', 'routed', at(40), at(250)),
    );
    observeTimelines(metrics, { leads: [{ lead: routed, previous, outputs: [] }] });
    const synced = appendTimelineEntry(routed, timelineEntry('crm_synced', 'synced', at(1250), at(3250)));
    observeTimelines(metrics, { leads: [{ lead: synced, previous: routed, outputs: [] }] });

    const text = await metrics.registry.metrics();
    // The received and validated entries were stored before: not observed again.
    expect(text).not.toMatch(/leadstream_lead_stage_duration_seconds_count\{stage="validated"\}/);
    expect(text).toMatch(/^leadstream_lead_stage_duration_seconds_sum\{stage="routed"\} 0\.21$/m);
    expect(text).toMatch(/^leadstream_lead_stage_wait_seconds_sum\{stage="crm_synced"\} 1$/m);
    expect(text).toMatch(/^leadstream_lead_stage_wait_seconds_sum\{stage="deduplicated"\} 0$/m);
    expect(text).toMatch(/^leadstream_lead_submission_to_decision_seconds_sum 0\.25$/m);
    expect(text).toMatch(/^leadstream_lead_submission_to_decision_seconds_count 1$/m);
    expect(text).toMatch(/^leadstream_lead_submission_to_crm_seconds_sum 3\.25$/m);
  });
});
