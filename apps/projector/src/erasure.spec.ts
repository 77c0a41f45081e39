/** lead.erased on the projection (erasure.ts), on chDB: the lead's rows lose their personal data, other leads keep theirs. */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { analyticsMigrations, openAnalytics } from '@leadstream/engine-clickhouse';
import type { LeadEventMessage } from '@leadstream/schemas';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Analytics } from '@leadstream/ports';
import { applyErasure, scrubPayload } from './erasure';
import { toLeadEventRow } from './lead-event-row';

const event = (id: string, name: LeadEventMessage['event'], data: Record<string, unknown>): LeadEventMessage => ({
  schema_version: 1,
  id,
  event: name,
  timestamp: '2026-11-27T10:00:00.000Z',
  organization_id: 'org_1',
  environment: 'live',
  data,
});

describe('scrubPayload', () => {
  it('nulls personal keys at any depth and keeps the rest', () => {
    expect(
      scrubPayload({
        lead: { id: 'lead_1', email: 'a@b.edu', status: 'new', vendor_id: 'ven_1' },
        changes: { phone: { old: '+1', new: '+2' }, status: { old: 'new', new: 'contacted' } },
      }),
    ).toEqual({
      lead: { id: 'lead_1', email: null, status: 'new', vendor_id: 'ven_1' },
      changes: { phone: null, status: { old: 'new', new: 'contacted' } },
    });
  });
});

describe('applyErasure on chDB', () => {
  let dir = '';
  let analytics: Analytics;
  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'projector-erasure-'));
    analytics = await openAnalytics({ dataDir: dir });
    await analytics.migrate(analyticsMigrations);
  }, 60_000);
  afterAll(async () => {
    await analytics.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it("drops the erased lead's email key and personal fields, leaving other leads and the counts", async () => {
    await analytics.insert('lead_events', [
      toLeadEventRow(
        event('evt_1', 'lead.created', {
          lead: { id: 'lead_1', email: 'Ann.Person@gmail.com', first_name: 'Ann', vendor_id: 'ven_1' },
        }),
      ) as unknown as Record<string, unknown>,
      toLeadEventRow(
        event('evt_2', 'lead.updated', {
          lead: { id: 'lead_1', email: 'ann.person@gmail.com', phone: '+15555550100', status: 'contacted' },
          changes: { phone: { old: null, new: '+15555550100' } },
        }),
      ) as unknown as Record<string, unknown>,
      toLeadEventRow(
        event('evt_3', 'lead.created', { lead: { id: 'lead_2', email: 'bob@example.edu', vendor_id: 'ven_1' } }),
      ) as unknown as Record<string, unknown>,
    ]);
    await applyErasure(
      analytics,
      'lead_events',
      event('evt_4', 'lead.erased', {
        lead_id: 'lead_1',
        lead: { id: 'lead_1', status: 'contacted', vendor_id: 'ven_1' },
        erased_at: '2026-11-27T11:00:00.000Z',
      }),
    );
    const rows = await analytics.query<{ event_id: string; email_key: string; data: string }>(
      'SELECT event_id, email_key, data FROM lead_events FINAL ORDER BY event_id',
    );
    expect(rows).toHaveLength(3);
    expect(rows[0]).toMatchObject({ event_id: 'evt_1', email_key: '' });
    expect(JSON.parse(rows[0]!.data)).toEqual({
      lead: { id: 'lead_1', email: null, first_name: null, vendor_id: 'ven_1' },
    });
    expect(JSON.parse(rows[1]!.data)).toEqual({
      lead: { id: 'lead_1', email: null, phone: null, status: 'contacted' },
      changes: { phone: null },
    });
    expect(rows.map((row) => row.data).join(' ')).not.toMatch(/ann|5555550100/i);
    // Another person's row keeps everything.
    expect(rows[2]).toMatchObject({ event_id: 'evt_3', email_key: 'bob@example.edu' });
    expect(JSON.parse(rows[2]!.data)).toMatchObject({ lead: { email: 'bob@example.edu' } });
  });
});
