import { describe, expect, it } from 'vitest';
import { checkLeadSubmission, operations, requestProblems } from '../index';

describe('checkLeadSubmission (the edge check of every ingestion path)', () => {
  it('words a wrong type as a user reads it', () => {
    expect(checkLeadSubmission({ email: 'ann@college.edu', phone: 12 })).toEqual([
      { field: 'phone', message: 'phone must be text' },
    ]);
  });

  it('names every invalid field of a refused body at once, the email too', () => {
    expect(checkLeadSubmission({ email: 'not-an-email', phone: 12 })).toEqual([
      { field: 'phone', message: 'phone must be text' },
      { field: 'email', message: 'email must be an email address like name@example.com' },
    ]);
    // An email that is only malformed passes the edge: the validate stage stores it as invalid_email.
    expect(checkLeadSubmission({ email: 'not-an-email', phone: '+1 415 555 2671' })).toEqual([]);
  });

  it('refuses a custom field value with a list directly inside a list (no engine loses it after the 202)', () => {
    expect(
      checkLeadSubmission({ email: 'ann@college.edu', custom_fields: { scores: [[1, 2]], ok: [{ a: [1] }] } }),
    ).toEqual([
      { field: 'custom_fields.scores', message: 'custom_fields.scores must not have a list directly inside a list' },
    ]);
  });

  it('refuses custom field keys a MongoDB-protocol server cannot store (a dot, a leading $), at any depth', () => {
    expect(checkLeadSubmission({ email: 'ann@college.edu', custom_fields: { 'a.b': 1 } })).toEqual([
      {
        field: 'custom_fields.a.b',
        message: "custom_fields.a.b has the key \"a.b\": keys may not contain '.' or start with '$'",
      },
    ]);
    expect(checkLeadSubmission({ email: 'ann@college.edu', custom_fields: { profile: [{ $where: 1 }] } })).toHaveLength(
      1,
    );
    expect(checkLeadSubmission({ email: 'ann@college.edu', custom_fields: { profile: { dollar$ok: 1 } } })).toEqual([]);
  });

  it('says what is missing or unknown', () => {
    expect(checkLeadSubmission({ first_name: 'Ann', colour: 'red' })).toEqual([
      { field: 'email', message: 'email is required' },
      { field: 'colour', message: 'colour is not a known field' },
    ]);
    expect(checkLeadSubmission({ email: 42 })).toEqual([{ field: 'email', message: 'email must be text' }]);
    expect(checkLeadSubmission({ email: 'ann@college.edu', phone: '+1 415 555 2671' })).toEqual([]);
  });
});

describe('the batch request in the OpenAPI document', () => {
  const batch = operations.find((operation) => operation.operationId === 'submitLeadBatch');
  const nested = (levels: number): unknown => (levels === 0 ? 1 : [nested(levels - 1)]);

  // The API answers every item it cannot take in the batch's 200 results, so the document must not
  // call such a batch invalid (Schemathesis found `{"leads":[{"":[[{"":[{"":{"":[[[[]]]]}}]}]]}]}`
  // answered 200 while the document limited item values to 10 levels).
  it('lets item values nest as deep as any request body may (32 levels), and no deeper', () => {
    expect(batch).toBeDefined();
    if (!batch) return;
    expect(requestProblems(batch, JSON.parse('{"leads": [{"": [[{"": [{"": {"": [[[[]]]]}}]}]]}]}'))).toEqual([]);
    // body, leads and the item are 3 levels; 29 lists below them reach the edge's 32 (a 30th is a 400).
    expect(requestProblems(batch, { leads: [{ deep: nested(29) }] })).toEqual([]);
    expect(requestProblems(batch, { leads: [{ deep: nested(30) }] })).not.toEqual([]);
    // Text with U+0000 stays refused, as the edge refuses it.
    expect(requestProblems(batch, { leads: [{ note: 'a\u0000b' }] })).not.toEqual([]);
  });
});
