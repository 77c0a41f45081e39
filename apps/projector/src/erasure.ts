/**
 * lead.erased on the analytics projection (docs/consent.md): the rows of the erased lead lose the
 * email key and every personal field of their payloads, while the events, times, vendor and
 * statuses stay, so the reports keep their counts. The projector applies it after the batch's rows
 * are stored (the lead's earlier events come first: one lead's events share a partition), and a
 * rebuild applies it again when it replays the event, so a rebuilt table never has the data back.
 */
import type { Analytics } from '@leadstream/ports';
import type { LeadEventMessage } from '@leadstream/schemas';

/** Payload keys that hold a person's data, wherever they appear in an event's payload. */
export const PERSONAL_KEYS = new Set([
  'email',
  'first_name',
  'last_name',
  'phone',
  'ip_address',
  'user_agent',
  'landing_page',
  'referrer',
  'custom_fields',
  'enrichment_data',
  'consent',
  'incoming_lead',
]);

/** The payload without personal values: those keys become null, at any depth (lead.updated's `changes` too). */
export function scrubPayload(value: unknown): unknown {
  if (Array.isArray(value)) return value.map((item) => scrubPayload(item));
  if (typeof value !== 'object' || value === null) return value;
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(value as Record<string, unknown>))
    out[key] = PERSONAL_KEYS.has(key) ? null : scrubPayload(item);
  return out;
}

function scrubData(data: string): string {
  try {
    return JSON.stringify(scrubPayload(JSON.parse(data)));
  } catch {
    return '{}';
  }
}

/**
 * Rewrites the lead's rows of `table`: one mutation (synchronous, so a caller that waits for the
 * projector sees its effect) setting each row's payload to its scrubbed form and the email key to ''.
 */
export async function applyErasure(analytics: Analytics, table: string, message: LeadEventMessage): Promise<void> {
  const leadId = typeof message.data['lead_id'] === 'string' ? message.data['lead_id'] : '';
  if (leadId === '' || !/^[A-Za-z0-9_]+$/.test(table)) return;
  const params = { org: message.organization_id, env: message.environment, lead: leadId };
  const rows = await analytics.query<{ event_id: string; data: string }>(
    `SELECT event_id, data FROM ${table}
      WHERE organization_id = {org:String} AND environment = {env:String} AND lead_id = {lead:String}`,
    params,
  );
  const changed = rows
    .map((row) => ({ id: row.event_id, data: scrubData(row.data), before: row.data }))
    .filter((row) => row.data !== row.before);
  if (changed.length === 0) {
    await analytics.command(
      `ALTER TABLE ${table} UPDATE email_key = ''
        WHERE organization_id = {org:String} AND environment = {env:String} AND lead_id = {lead:String}
          AND email_key != ''
        SETTINGS mutations_sync = 2`,
      params,
    );
    return;
  }
  await analytics.command(
    `ALTER TABLE ${table} UPDATE email_key = '', data = transform(event_id, {ids:Array(String)}, {datas:Array(String)}, data)
      WHERE organization_id = {org:String} AND environment = {env:String} AND lead_id = {lead:String}
      SETTINGS mutations_sync = 2`,
    { ...params, ids: changed.map((row) => row.id), datas: changed.map((row) => row.data) },
  );
}
