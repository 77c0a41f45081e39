/**
 * Required fields of a submission: `email` always, plus the fields the organization
 * marks required (`ValidationSettings.required_fields`). Blank text counts as missing, since a
 * form posts empty inputs as "".
 */
import type { LeadSubmission } from '../lead/lead-submission';
import type { FieldProblem } from './custom-fields';

export const ALWAYS_REQUIRED_FIELDS = ['email'] as const;

export function checkRequiredFields(submission: LeadSubmission, requiredFields: readonly string[]): FieldProblem[] {
  const fields = new Set<string>([...ALWAYS_REQUIRED_FIELDS, ...requiredFields]);
  const values = submission as unknown as Readonly<Record<string, unknown>>;
  const problems: FieldProblem[] = [];
  for (const field of fields) {
    // Custom fields are required through their own definitions (custom-fields.ts).
    if (field === 'custom_fields') continue;
    if (isBlank(values[field])) problems.push({ field, message: 'is required', missing: true });
  }
  return problems;
}

function isBlank(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}
