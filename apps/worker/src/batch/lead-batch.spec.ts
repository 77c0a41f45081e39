/**
 * Trace headers on a batch's outputs (docs/operations.md, "Tracing"): what a stage puts while a command's span
 * is set leaves the batch carrying it; outputs forwarded inside a chain stay as they are (the next
 * stage takes the trace context of the chain's record); a crash's left-over outbox keeps its headers.
 */
import type { LeadRecord } from '@leadstream/domain';
import { describe, expect, it } from 'vitest';
import { emptyBatchWrite } from './batch-write';
import { LeadBatch } from './lead-batch';

const lead = (id: string, outbox: LeadRecord['outbox'] = []): LeadRecord =>
  ({
    _id: id,
    organization_id: 'org_1',
    environment: 'live',
    version: 1,
    applied_messages: [],
    outbox,
    outbox_at: outbox.length > 0 ? '2026-01-01T00:00:00.000Z' : null,
  }) as unknown as LeadRecord;
const TRACE = { traceparent: '00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01' };

describe('LeadBatch trace headers', () => {
  it('stamps the outputs that leave the batch with the span set, not the ones forwarded in the chain', () => {
    const batch = new LeadBatch();
    batch.chain(new Set(['leads.validated']));
    batch.traceWith(TRACE);
    batch.put(lead('lead_1'), [
      { topic: 'leads.validated', key: 'k', value: 'next' },
      { topic: 'leads.events', key: 'lead_1', value: 'created', headers: { 'x-own': 'kept' } },
    ]);
    batch.traceWith(undefined);
    batch.put(lead('lead_2'), [{ topic: 'leads.events', key: 'lead_2', value: 'untraced' }]);

    expect(batch.takeForwarded('leads.validated')).toEqual([{ topic: 'leads.validated', key: 'k', value: 'next' }]);
    const write = emptyBatchWrite();
    batch.toWrite(write);
    expect(write.leads.map((entry) => entry.outputs)).toEqual([
      [{ topic: 'leads.events', key: 'lead_1', value: 'created', headers: { 'x-own': 'kept', ...TRACE } }],
      [{ topic: 'leads.events', key: 'lead_2', value: 'untraced' }],
    ]);
  });

  it('produces a left-over outbox with its headers', () => {
    const batch = new LeadBatch();
    batch.load(lead('lead_1', [{ topic: 'leads.routed', key: 'lead_1', value: 'routed', headers: TRACE }]));
    batch.put({ ...lead('lead_1'), updated_at: 'now' }, []);
    const write = emptyBatchWrite();
    batch.toWrite(write);
    expect(write.leads[0]!.outputs).toEqual([
      { topic: 'leads.routed', key: 'lead_1', value: 'routed', headers: TRACE },
    ]);
  });
});
