/** The volume caps' operations (docs/caps.md), joined into the operation table by operations.ts. */
import { CAP_DURATION_UNITS, CAP_SCOPES, MAX_CAP_DURATION, MAX_CAP_MAXIMUM } from '@leadstream/domain';
import type { Operation } from './operations';
import {
  anyObject,
  array,
  body,
  bool,
  data,
  dataList,
  int,
  nullable,
  oneOfValues,
  record,
  str,
  trimmedText,
} from './json-schema';

const TAG = 'Volume caps';
const READ = 'caps:read';
const WRITE = 'caps:write';
const dateTime = str({ format: 'date-time' });
const conditions = body(
  { operator: oneOfValues(['AND', 'OR']), rules: array(anyObject(), { minItems: 1, maxItems: 100 }) },
  ['operator', 'rules'],
);
const reason = str({ pattern: '^[a-z][a-z0-9_]{0,63}$' });

const cap = record({
  id: str({ pattern: '^cap_' }),
  name: str(),
  scope: oneOfValues(CAP_SCOPES),
  vendor_id: nullable(str()),
  maximum: int({ minimum: 0 }),
  duration: int({ minimum: 1 }),
  duration_units: oneOfValues(CAP_DURATION_UNITS),
  time_zone: str(),
  conditions: nullable(conditions),
  reason: str(),
  enabled: bool(),
  created_at: dateTime,
  updated_at: dateTime,
});

const capFields = {
  name: trimmedText(1, 200),
  scope: oneOfValues(CAP_SCOPES),
  vendor_id: nullable(str({ minLength: 1, maxLength: 100 })),
  maximum: int({ minimum: 0, maximum: MAX_CAP_MAXIMUM }),
  duration: int({ minimum: 1, maximum: MAX_CAP_DURATION }),
  duration_units: oneOfValues(CAP_DURATION_UNITS),
  time_zone: str({ minLength: 1, maxLength: 64, description: 'An IANA time zone name, e.g. America/New_York' }),
  conditions: nullable(conditions),
  reason,
  enabled: bool(),
};
const CAP_CHECKS =
  "that time_zone is an IANA time zone, that vendor_id names a vendor of the organization (required with scope vendor, null with scope organization), and each condition's field path and operator (as enrichment rules')";

const usage = record({
  cap_id: str(),
  period_start: dateTime,
  period_end: dateTime,
  count: int({ minimum: 0 }),
  maximum: int({ minimum: 0 }),
  remaining: int({ minimum: 0 }),
});

const vendorCap = record({
  id: str({ pattern: '^cap_' }),
  name: str(),
  enabled: bool(),
  maximum: int({ minimum: 0 }),
  duration: int({ minimum: 1 }),
  duration_units: oneOfValues(CAP_DURATION_UNITS),
  time_zone: str(),
  reason: str(),
  period_start: dateTime,
  period_end: dateTime,
  count: int({ minimum: 0 }),
  remaining: int({ minimum: 0 }),
});

export const capsOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/caps',
    operationId: 'listCaps',
    tag: TAG,
    summary: "The organization's volume caps, oldest first",
    auth: 'session',
    convention: 'user',
    permission: READ,
    responses: { 200: dataList(cap) },
  },
  {
    method: 'post',
    path: '/api/caps',
    operationId: 'createCap',
    tag: TAG,
    summary: 'Make a volume cap (1 day in the organization time zone or UTC, reason cap_reached, enabled, by default)',
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    requestBody: body(capFields, ['name', 'maximum']),
    responses: { 201: data(cap) },
    errors: [400],
    semanticChecks: CAP_CHECKS,
  },
  {
    method: 'get',
    path: '/api/caps/:id',
    operationId: 'getCap',
    tag: TAG,
    summary: 'A volume cap',
    auth: 'session',
    convention: 'user',
    permission: READ,
    responses: { 200: data(cap) },
  },
  {
    method: 'patch',
    path: '/api/caps/:id',
    operationId: 'updateCap',
    tag: TAG,
    summary: "Change any of a cap's fields (the counts of the current period stay)",
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    requestBody: body(capFields, [], { minProperties: 1 }),
    responses: { 200: data(cap) },
    errors: [400],
    semanticChecks: CAP_CHECKS,
  },
  {
    method: 'delete',
    path: '/api/caps/:id',
    operationId: 'deleteCap',
    tag: TAG,
    summary: 'Delete a volume cap',
    auth: 'session',
    convention: 'user',
    permission: WRITE,
    responses: { 204: null },
  },
  {
    method: 'get',
    path: '/api/caps/:id/usage',
    operationId: 'capUsage',
    tag: TAG,
    summary: "The cap's current period (in its time zone) and how many live leads it has counted",
    auth: 'session',
    convention: 'user',
    permission: READ,
    responses: { 200: data(usage) },
  },
  {
    method: 'get',
    path: '/api/vendor-portal/caps',
    operationId: 'vendorCaps',
    tag: 'Vendor portal',
    summary: 'The caps on the calling vendor and what is left of each in its current period',
    auth: 'apiKey',
    convention: 'ingestion',
    responses: { 200: dataList(vendorCap) },
  },
];
