/** The suppression lists' operations (docs/suppression-lists.md), joined into the operation table by operations.ts. */
import { SUPPRESSION_ACTIONS, SUPPRESSION_KINDS } from '@leadstream/domain';
import type { Operation } from './operations';
import { array, body, bool, data, int, nullable, obj, oneOfValues, record, ref, str, trimmedText } from './json-schema';

const TAG = 'Suppression lists';
const READ = 'suppression:read';
const WRITE = 'suppression:write';
const dateTime = str({ format: 'date-time' });

const list = record({
  id: str({ pattern: '^supl_' }),
  name: str(),
  kind: oneOfValues(SUPPRESSION_KINDS),
  action: oneOfValues(SUPPRESSION_ACTIONS),
  expires_after_days: nullable(int({ minimum: 1 })),
  sandbox_only: bool(),
  enabled: bool(),
  entry_count: int({ minimum: 0 }),
  created_at: dateTime,
  updated_at: dateTime,
});

const importJob = record({
  id: str({ pattern: '^supimp_' }),
  list_id: str(),
  status: oneOfValues(['running', 'completed', 'failed']),
  rows: int({ minimum: 0 }),
  added: int({ minimum: 0 }),
  invalid: int({ minimum: 0 }),
  error: nullable(str()),
  created_at: dateTime,
  finished_at: nullable(dateTime),
  status_url: str(),
});

const listFields = {
  name: trimmedText(1, 200),
  action: oneOfValues(SUPPRESSION_ACTIONS),
  expires_after_days: nullable(int({ minimum: 1, maximum: 36_500 })),
  sandbox_only: bool(),
  enabled: bool(),
};

const values = body(
  {
    values: array(str({ minLength: 1, maxLength: 320 }), { minItems: 1, maxItems: 10_000 }),
    hashed: bool(),
  },
  ['values'],
);
const VALUE_CHECKS =
  "that each value is one of the list's kind (an email address, a phone number of 7 digits or more, a domain name) or, with `hashed`, a SHA-256 in 64 hexadecimal characters";

const entriesAdded = data(record({ list_id: str(), added: int({ minimum: 0 }), entry_count: int({ minimum: 0 }) }));
const hashed = {
  name: 'hashed',
  in: 'query',
  schema: { type: 'string', enum: ['true', 'false', ''] },
  description: 'true: the value (or each row) is already the SHA-256 of the normalized value',
} as const;

export const suppressionOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/suppression-lists',
    operationId: 'listSuppressionLists',
    tag: TAG,
    summary: "The organization's suppression lists, oldest first",
    auth: 'session',
    convention: 'user',
    permission: READ,
    query: [
      { name: 'page', in: 'query', schema: int({ minimum: 1, maximum: 1_000_000, default: 1 }) },
      { name: 'limit', in: 'query', schema: int({ minimum: 1, maximum: 100, default: 20 }) },
    ],
    responses: { 200: obj({ data: array(list), meta: ref('PageMeta') }, ['data', 'meta']) },
  },
  {
    method: 'post',
    path: '/api/suppression-lists',
    operationId: 'createSuppressionList',
    tag: TAG,
    summary: 'Make a suppression list (action reject by default, entries kept for ever unless expires_after_days)',
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    requestBody: body({ ...listFields, kind: oneOfValues(SUPPRESSION_KINDS) }, ['name', 'kind']),
    responses: { 201: data(list) },
  },
  {
    method: 'get',
    path: '/api/suppression-lists/:id',
    operationId: 'getSuppressionList',
    tag: TAG,
    summary: 'A suppression list with its entry count',
    auth: 'session',
    convention: 'user',
    permission: READ,
    responses: { 200: data(list) },
  },
  {
    method: 'patch',
    path: '/api/suppression-lists/:id',
    operationId: 'updateSuppressionList',
    tag: TAG,
    summary: "Change a list's name, action, expiry, sandbox_only or enabled (its kind stays)",
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    requestBody: body(listFields, [], { minProperties: 1 }),
    responses: { 200: data(list) },
  },
  {
    method: 'delete',
    path: '/api/suppression-lists/:id',
    operationId: 'deleteSuppressionList',
    tag: TAG,
    summary: 'Delete a suppression list and its entries',
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    responses: { 204: null },
  },
  {
    method: 'post',
    path: '/api/suppression-lists/:id/entries',
    operationId: 'addSuppressionEntries',
    tag: TAG,
    summary: 'Add up to 10,000 values (stored only as SHA-256 of the normalized value)',
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    requestBody: values,
    responses: { 200: entriesAdded },
    semanticChecks: VALUE_CHECKS,
  },
  {
    method: 'delete',
    path: '/api/suppression-lists/:id/entries',
    operationId: 'removeSuppressionEntries',
    tag: TAG,
    summary: 'Take up to 10,000 values off the list',
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    requestBody: values,
    responses: {
      200: data(record({ list_id: str(), removed: int({ minimum: 0 }), entry_count: int({ minimum: 0 }) })),
    },
    semanticChecks: VALUE_CHECKS,
  },
  {
    method: 'get',
    path: '/api/suppression-lists/:id/entries/check',
    operationId: 'checkSuppressionValue',
    tag: TAG,
    summary: 'Whether a value is on the list now, since when and until when',
    auth: 'session',
    convention: 'user',
    permission: READ,
    query: [{ name: 'value', in: 'query', schema: str({ minLength: 1, maxLength: 320 }), required: true }, hashed],
    responses: {
      200: data(record({ suppressed: bool(), added_at: nullable(dateTime), expires_at: nullable(dateTime) })),
    },
  },
  {
    method: 'post',
    path: '/api/suppression-lists/:id/entries/import',
    operationId: 'importSuppressionEntries',
    tag: TAG,
    summary: 'Import a CSV file of one column (a header row is allowed), up to 1,000,000 rows, as a job',
    description:
      'The file is streamed; the answer is the job, polled at its `status_url`. Rows that are no value of the list are counted as `invalid` and skipped.',
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    query: [hashed],
    requestMediaType: 'text/csv',
    // Any bytes are a CSV file (rows that are no value of the list count as invalid): no schema to break.
    requestBody: { description: 'One value per line' },
    responses: { 202: data(importJob) },
    errors: [413, 415],
  },
  {
    method: 'get',
    path: '/api/suppression-lists/:id/entries/import/:job_id',
    operationId: 'getSuppressionImport',
    tag: TAG,
    summary: 'An import job: status, rows read, entries added, invalid rows',
    auth: 'session',
    convention: 'user',
    permission: READ,
    responses: { 200: data(importJob) },
  },
  {
    method: 'post',
    path: '/api/leads/:id/suppress',
    operationId: 'suppressLead',
    tag: TAG,
    summary: "Do not contact: put the lead's email, phone or email domain (the list's kind) on a list",
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    requestBody: body({ list_id: str({ minLength: 1, maxLength: 100 }) }, ['list_id']),
    semanticChecks: "that the lead has a value of the list's kind (a phone for a phone list)",
    responses: { 200: entriesAdded },
  },
];
