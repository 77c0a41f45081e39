/** Consent evidence and erasure (docs/consent.md), joined into the operation table by operations.ts. */
import { CONSENT_METHODS } from '@leadstream/domain';
import type { Operation } from './operations';
import { array, body, bool, data, int, nullable, obj, oneOfValues, record, str } from './json-schema';

const dateTime = str({ format: 'date-time' });
const nullableText = nullable(str());

/** A consent phrase: `{{*}}` stands for one or more words. */
const term = str({ minLength: 1, maxLength: 500 });

/** `settings.consent_requirements` of PATCH /api/organization: merged field by field into the current ones. */
export const consentRequirementsBody = body({
  required: bool(),
  required_terms: array(term, { maxItems: 50 }),
  forbidden_terms: array(term, { maxItems: 50 }),
  max_age_hours: nullable(int({ minimum: 1, maximum: 87_600 })),
  action: oneOfValues(['reject', 'flag']),
});

export const consentRetentionDays = int({ minimum: 1, maximum: 18_263 });

/** The requirements as GET /api/organization shows them (the defaults until set). */
export const consentRequirements = record({
  required: bool(),
  required_terms: array(str()),
  forbidden_terms: array(str()),
  max_age_hours: nullable(int({ minimum: 1 })),
  action: oneOfValues(['reject', 'flag']),
});

const evidence = obj(
  {
    text: str(),
    given_at: str(),
    page_url: str(),
    ip: str(),
    user_agent: str(),
    certificate_url: str(),
    method: oneOfValues(CONSENT_METHODS),
  },
  ['text', 'given_at', 'page_url', 'ip', 'user_agent', 'method'],
);

export const consentOperations: Operation[] = [
  {
    method: 'get',
    path: '/api/leads/:id/consent',
    operationId: 'getLeadConsent',
    tag: 'Leads',
    summary: "A lead's consent evidence, its SHA-256 and whether it still matches (tamper check)",
    description:
      "The evidence as received with the submission, its canonical JSON (keys sorted, no white space), the SHA-256 of that JSON and when it was received. `matches` recomputes the hash: false means the stored evidence changed after it was received. All null when the submission carried no consent, or after an erasure. A deleted lead keeps its evidence for the organization's `consent_retention_days` (docs/consent.md).",
    auth: 'session',
    convention: 'user',
    permission: 'leads:read',
    query: [
      {
        name: 'environment',
        in: 'query',
        schema: { type: 'string', enum: ['live', 'sandbox', ''] },
        description: 'sandbox: the leads sent with vk_test_ keys',
      },
    ],
    responses: {
      200: data(
        record({
          lead_id: str(),
          evidence: nullable(evidence),
          canonical_json: nullableText,
          sha256: nullable(str({ pattern: '^[0-9a-f]{64}$' })),
          received_at: nullable(dateTime),
          matches: nullable(bool()),
          erased: bool(),
          lead_deleted_at: nullable(dateTime),
        }),
      ),
    },
    errors: [400, 404],
  },
  {
    method: 'post',
    path: '/api/leads/:id/erase',
    operationId: 'eraseLead',
    tag: 'Leads',
    summary: "Erase the person's data from a lead, its activity, the dedup log and undownloaded exports (owner, admin)",
    description:
      "The lead stays as a tombstone (status, vendor, source, program, UTM fields and times), so reports keep their counts; its email, names, phone, IP address, user agent, pages, custom fields, enrichment data and consent evidence go. Its activity entries lose their metadata, its dedup log entry the person's email and names, and every export still downloadable loses the lead's row. Emits lead.erased, on which the analytics projection drops the lead's email key and personal fields. With `suppress_list_id`, the lead's email (or phone, or email domain: the list's kind) goes onto that suppression list first. A deleted lead can be erased too; erasing again changes nothing (docs/consent.md).",
    auth: 'session',
    convention: 'user',
    permission: 'leads:erase',
    requestBody: body({ suppress_list_id: nullable(str({ minLength: 1, maxLength: 100 })) }),
    semanticChecks: 'that suppress_list_id names a suppression list of the organization',
    responses: {
      200: data(
        record({
          lead_id: str(),
          erased_at: dateTime,
          activity_entries: int({ minimum: 0 }),
          dedup_log_entries: int({ minimum: 0 }),
          exports_cleaned: int({ minimum: 0 }),
          suppression: nullable(record({ list_id: str(), added: int({ minimum: 0 }) })),
        }),
      ),
    },
    errors: [400, 404],
  },
];
