/** The reprocessing operations (docs/reprocessing.md), joined into the operation table by operations.ts. */
import { LEAD_STATUSES } from './components';
import type { Operation } from './operations';
import { array, body, bool, data, dateTime, int, nullable, obj, oneOfValues, record, str } from './json-schema';

const TAG = 'Reprocessing';
const STAGES = ['enrich', 'route', 'crm-sync'] as const;
const STATUSES = ['queued', 'running', 'completed', 'cancelled', 'failed'] as const;

const filter = body({
  status: oneOfValues(LEAD_STATUSES),
  source: str({ minLength: 1, maxLength: 200 }),
  vendor_id: str({ minLength: 1, maxLength: 200 }),
  program: str({ minLength: 1, maxLength: 200 }),
  start_date: str({ minLength: 1 }),
  end_date: str({ minLength: 1 }),
  search: str({ minLength: 1, maxLength: 200 }),
});

const reprocessJob = record({
  id: str({ pattern: '^reproc_' }),
  status: oneOfValues(STATUSES),
  filter: obj({}),
  stages: array(oneOfValues(STAGES)),
  dry_run: bool(),
  total: nullable(int({ minimum: 0 })),
  done: int({ minimum: 0 }),
  changed: int({ minimum: 0 }),
  failed: int({ minimum: 0 }),
  crm_syncs: int({ minimum: 0 }),
  field_counts: obj({}, [], { additionalProperties: int({ minimum: 0 }) }),
  sample: array(obj({ lead_id: str(), field: str(), old: {}, new: {} }, ['lead_id', 'field', 'old', 'new']), {
    maxItems: 100,
  }),
  cancel_requested: bool(),
  error: nullable(str()),
  created_by: str(),
  created_at: dateTime(),
  started_at: nullable(dateTime()),
  completed_at: nullable(dateTime()),
});

export const reprocessOperations: Operation[] = [
  {
    method: 'post',
    path: '/api/reprocess',
    operationId: 'startReprocessing',
    tag: TAG,
    summary: 'Apply the current enrichment and routing rules to leads already received',
    description:
      'Answered 202 with the job (`reproc_…`); poll `GET /api/reprocess/{id}`. `filter` takes the filters of the lead export. A dry run changes nothing and reports what would change (counts per field and up to 100 differences); a real run writes only what changed, with `lead.updated` and a `lead.reprocessed` activity entry per changed lead, and syncs to the CRM only leads whose routing target changed (stage `crm-sync`, which needs `route`).',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    requestBody: body(
      {
        filter: nullable(filter),
        stages: array(oneOfValues(STAGES), { minItems: 1, maxItems: STAGES.length, uniqueItems: true }),
        dry_run: nullable(bool()),
      },
      ['stages'],
    ),
    responses: { 202: data(reprocessJob) },
    errors: [400],
    semanticChecks: 'that start_date and end_date are ISO 8601 dates or date-times, and that crm-sync comes with route',
  },
  {
    method: 'get',
    path: '/api/reprocess/:id',
    operationId: 'getReprocessing',
    tag: TAG,
    summary: "A reprocessing job's progress, and a dry run's differences",
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    responses: { 200: data(reprocessJob) },
    errors: [404],
  },
  {
    method: 'post',
    path: '/api/reprocess/:id/cancel',
    operationId: 'cancelReprocessing',
    tag: TAG,
    summary: 'Stop a queued or running reprocessing job',
    description:
      'The job stops after the batch in progress (leads written before stay written) and becomes `cancelled`. A job that has ended is answered as it is.',
    auth: 'session',
    convention: 'user',
    permission: 'rules:write',
    responses: { 200: data(reprocessJob) },
    errors: [404],
  },
];
