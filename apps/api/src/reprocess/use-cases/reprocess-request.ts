/** The body of POST /api/reprocess, checked (docs/reprocessing.md), and the job as the API shows it. */
import { REPROCESS_STAGES, type ReprocessJob, type ReprocessStageName } from '@leadstream/dal';
import { parseExportRequest, type ErrorDetail, type ExportFilters } from '@leadstream/domain';

export interface ReprocessRequest {
  filter: ExportFilters;
  stages: ReprocessStageName[];
  dry_run: boolean;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Checks the body of POST /api/reprocess; `filter` takes the filters of the lead export. */
export function parseReprocessRequest(
  body: unknown,
): { ok: true; request: ReprocessRequest } | { ok: false; details: ErrorDetail[] } {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details: ErrorDetail[] = [];
  for (const key of Object.keys(body))
    if (!['filter', 'stages', 'dry_run'].includes(key))
      details.push({ field: key, message: `${key} is not a known field` });
  let filter: ExportFilters = {};
  const parsed = parseExportRequest({ filters: body['filter'] ?? {} });
  if (parsed.ok) filter = parsed.request.filters;
  else
    details.push(...parsed.details.map((detail) => ({ ...detail, field: detail.field.replace(/^filters/, 'filter') })));
  const stages = body['stages'];
  let chosen: ReprocessStageName[] = [];
  if (!Array.isArray(stages) || stages.length === 0)
    details.push({ field: 'stages', message: `stages must be a non-empty array of ${REPROCESS_STAGES.join(', ')}` });
  else {
    const unknown = stages.filter((stage) => !(REPROCESS_STAGES as readonly unknown[]).includes(stage));
    if (unknown.length > 0)
      details.push({ field: 'stages', message: `unknown stages: ${unknown.map(String).join(', ')}` });
    else if (new Set(stages).size !== stages.length)
      details.push({ field: 'stages', message: 'stages must name each stage once' });
    // In pipeline order, each once.
    chosen = REPROCESS_STAGES.filter((stage) => stages.includes(stage));
    if (chosen.includes('crm-sync') && !chosen.includes('route'))
      details.push({ field: 'stages', message: 'crm-sync needs route: a CRM sync follows a changed route' });
  }
  const dryRun = body['dry_run'] ?? false;
  if (typeof dryRun !== 'boolean') details.push({ field: 'dry_run', message: 'dry_run must be a boolean' });
  if (details.length > 0) return { ok: false, details };
  return { ok: true, request: { filter, stages: chosen, dry_run: dryRun as boolean } };
}

/** The job as the API shows it. */
export function reprocessJobView(job: ReprocessJob): Record<string, unknown> {
  return {
    id: job._id,
    status: job.status,
    filter: job.filter,
    stages: job.stages,
    dry_run: job.dry_run,
    total: job.total,
    done: job.done,
    changed: job.changed,
    failed: job.failed,
    crm_syncs: job.crm_syncs,
    field_counts: job.field_counts,
    sample: job.sample,
    cancel_requested: job.cancel_requested,
    error: job.error,
    created_by: job.user_id,
    created_at: job.created_at,
    started_at: job.started_at,
    completed_at: job.completed_at,
  };
}
