/**
 * POST /api/leads/:id/erase (docs/consent.md): the person's personal data leaves the lead, its
 * activity entries, its dedup log entry and the exports still to be downloaded. The lead stays as
 * a tombstone (status, vendor, source, program, UTM fields, times), so reports keep their counts;
 * lead.erased tells webhooks and the analytics projection, which drops the email key and the
 * personal fields of the lead's rows. With `suppress_list_id`, the lead's email (or phone, or
 * domain: the list's kind) goes onto that suppression list first.
 */
import type { ErasureRepository, LeadQueryRepository, OutboxEntry, SuppressionRepository } from '@leadstream/dal';
import {
  DomainError,
  leadSearchFields,
  leadSuppressionKeys,
  type LeadRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { EventLog, ExportFileStore } from '@leadstream/ports';
import { newId, TOPICS } from '@leadstream/runtime';
import type { LeadEventMessage } from '@leadstream/schemas';
import type { Logger } from 'pino';
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { withoutLeadRows } from './export-rows';

export interface EraseLeadDeps {
  erasure: ErasureRepository;
  queries: Pick<LeadQueryRepository, 'clearOutbox'>;
  log: Pick<EventLog, 'produce'>;
  /** Suppression lists (apps/api/src/suppression); without it `suppress_list_id` is refused. */
  suppression?: Pick<SuppressionRepository, 'get' | 'addEntries'>;
  /** Export files; without them (exports not mounted) there are none to clean. */
  exportFiles?: ExportFileStore;
  logger: Pick<Logger, 'warn'>;
  clock: () => Date;
}

export interface EraseLeadResult {
  lead_id: string;
  erased_at: string;
  activity_entries: number;
  dedup_log_entries: number;
  exports_cleaned: number;
  suppression: { list_id: string; added: number } | null;
}

const invalid = (field: string, message: string): DomainError =>
  new DomainError('VALIDATION_ERROR', 'Invalid request', [{ field, message }]);

function readBody(body: unknown): { suppressListId: string | null } {
  if (body === undefined || body === null || (typeof body === 'object' && Object.keys(body).length === 0))
    return { suppressListId: null };
  if (typeof body !== 'object' || Array.isArray(body)) throw invalid('(body)', 'body must be a JSON object');
  const record = body as Record<string, unknown>;
  for (const key of Object.keys(record))
    if (key !== 'suppress_list_id') throw invalid(key, `${key} is not a known field`);
  const id = record['suppress_list_id'];
  if (id === null || id === undefined) return { suppressListId: null };
  if (typeof id !== 'string' || id === '' || id.length > 100)
    throw invalid('suppress_list_id', 'suppress_list_id must be a suppression list id');
  return { suppressListId: id };
}

/** What the lead keeps: everything but the person. The consent evidence goes with the person. */
export function erasedFields(lead: LeadRecord, at: string, by: string | null): Partial<LeadRecord> {
  return {
    email: '',
    first_name: null,
    last_name: null,
    phone: null,
    ip_address: null,
    user_agent: null,
    landing_page: null,
    referrer: null,
    custom_fields: {},
    enrichment_data: {},
    warnings: [],
    dedup_key: '',
    bk_email: null,
    bk_phone: null,
    bk_name: null,
    ...leadSearchFields({ email: null, first_name: null, last_name: null, phone: null }),
    consent: null,
    actor: { ...lead.actor, context: { ...lead.actor.context, warnings: [] } },
    erased_at: at,
    erased_by: by,
    updated_at: at,
  };
}

function erasedEvent(lead: LeadRecord, at: string, by: string | null, listId: string | null): OutboxEntry {
  const message: LeadEventMessage = {
    schema_version: 1,
    id: newId('evt'),
    event: 'lead.erased',
    timestamp: at,
    organization_id: lead.organization_id,
    environment: lead.environment,
    data: {
      lead_id: lead._id,
      lead: { id: lead._id, status: lead.status, vendor_id: lead.vendor_id },
      erased_at: at,
      erased_by: by,
      suppression_list_id: listId,
    },
  };
  return { topic: TOPICS.events, key: lead._id, value: JSON.stringify(message) };
}

const MAX_ATTEMPTS = 5;

export async function eraseLead(
  deps: EraseLeadDeps,
  tenant: TenantContext,
  id: string,
  body: unknown,
  by: string | null,
): Promise<EraseLeadResult> {
  const { suppressListId } = readBody(body);
  const first = await deps.erasure.findAny(tenant, id);
  if (!first) throw new DomainError('LEAD_NOT_FOUND', 'Lead not found');

  // The suppression list first, while the lead still has its email and phone.
  let suppression: EraseLeadResult['suppression'] = null;
  if (suppressListId !== null) {
    if (!deps.suppression) throw invalid('suppress_list_id', 'suppression lists are not available');
    const list = await deps.suppression.get(tenant.organizationId, suppressListId);
    if (!list) throw invalid('suppress_list_id', 'no suppression list of your organization has this id');
    const key = leadSuppressionKeys(first)[list.kind];
    suppression = {
      list_id: list.id,
      added: key ? await deps.suppression.addEntries(list, [key], deps.clock()) : 0,
    };
  }

  let erasedAt = typeof first['erased_at'] === 'string' ? first['erased_at'] : null;
  for (let attempt = 1; erasedAt === null; attempt++) {
    if (attempt > MAX_ATTEMPTS)
      throw new DomainError('SERVICE_UNAVAILABLE', 'The lead is being changed by others; try again');
    const lead = attempt === 1 ? first : await deps.erasure.findAny(tenant, id);
    if (!lead) throw new DomainError('LEAD_NOT_FOUND', 'Lead not found');
    if (typeof lead['erased_at'] === 'string') {
      erasedAt = lead['erased_at'];
      break;
    }
    const at = deps.clock().toISOString();
    const written = await deps.erasure.writeIfUnchanged(tenant, id, lead.version, erasedFields(lead, at, by), [
      ...lead.outbox,
      erasedEvent(lead, at, by, suppression?.list_id ?? null),
    ]);
    if (!written) continue;
    for (const [topic, records] of groupByTopic(written.outbox))
      await deps.log.produce(
        topic,
        records.map(({ key, value }) => ({ key, value })),
      );
    await deps.queries.clearOutbox(tenant, id, written.version);
    erasedAt = at;
  }

  // Then everything else that names the person (again on a repeated request: harmless).
  const activity = await deps.erasure.scrubActivity(tenant, id);
  const dedup = await deps.erasure.scrubDedupLog(tenant, id);
  const exportsCleaned = await cleanExports(deps, tenant, id);
  return {
    lead_id: id,
    erased_at: erasedAt,
    activity_entries: activity,
    dedup_log_entries: dedup,
    exports_cleaned: exportsCleaned,
    suppression,
  };
}

function groupByTopic(outbox: OutboxEntry[]): Map<string, OutboxEntry[]> {
  const byTopic = new Map<string, OutboxEntry[]>();
  for (const entry of outbox) byTopic.set(entry.topic, [...(byTopic.get(entry.topic) ?? []), entry]);
  return byTopic;
}

/** Rewrites each downloadable export of the tenant that holds the lead without its rows. */
async function cleanExports(deps: EraseLeadDeps, tenant: TenantContext, leadId: string): Promise<number> {
  const files = deps.exportFiles;
  if (!files) return 0;
  let cleaned = 0;
  for (const record of await deps.erasure.downloadableExports(tenant, deps.clock())) {
    const fileId = record.file_id;
    if (fileId === null) continue;
    const stream = await files.get(fileId);
    if (!stream) continue;
    const content = await text(stream);
    if (!content.includes(leadId)) continue;
    const rewritten = withoutLeadRows(content, leadId);
    if (rewritten.removed === 0) continue;
    await files.put(fileId, Readable.from([rewritten.text]));
    await deps.erasure.replaceExportFile(tenant, record._id, fileId, rewritten.rows);
    cleaned++;
  }
  return cleaned;
}
