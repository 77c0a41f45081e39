import { describe, expect, it } from 'vitest';
import { eventPayloadProblems, LEAD_EVENT_NAMES } from '../index';

describe('event payload schemas', () => {
  it('define the data of every event name of the envelope', () => {
    expect(
      LEAD_EVENT_NAMES.filter((event) =>
        eventPayloadProblems({ event, data: {} }).some((problem) => problem.startsWith('no payload schema')),
      ),
    ).toEqual([]);
  });

  it('accept the documented payloads and name what is wrong', () => {
    expect(
      eventPayloadProblems({
        event: 'export.completed',
        data: {
          export_id: 'exp_1',
          format: 'csv',
          row_count: 3,
          download_url: 'https://x/exports/exp_1/download',
          expires_at: '2026-01-01T00:00:00.000Z',
        },
      }),
    ).toEqual([]);
    expect(
      eventPayloadProblems({
        event: 'lead.crm_synced',
        data: {
          lead_id: 'lead_1',
          crm_type: 'salesforce',
          crm_id: '00Q1',
          crm_record_url: null,
          synced_at: '2026-01-01T00:00:00.000Z',
        },
      }),
    ).toEqual([]);
    expect(
      eventPayloadProblems({
        event: 'export.completed',
        data: { export_id: 'exp_1', format: 'csv', row_count: -1, download_url: 'u', expires_at: 'soon' },
      }),
    ).toEqual(['export.completed/row_count must be >= 0', 'export.completed/expires_at must match format "date-time"']);
  });
});
