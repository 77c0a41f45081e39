/**
 * ajv's errors as the API's `details` (docs/api-conventions.md): one `{field, message}` per
 * problem, the field named first, in words a user reads ("phone must be text", not "must be
 * string").
 */
import { BLANK } from '@leadstream/domain';
import type { ErrorObject } from 'ajv';

/** Field-level problems of a request body, in the API's `details` shape (docs/api-conventions.md). */
export interface BodyProblem {
  field: string;
  message: string;
}

/** JSON Schema types as a user reads them. */
const TYPE_WORDS: Record<string, string> = {
  string: 'text',
  number: 'a number',
  integer: 'a whole number',
  boolean: 'true or false',
  object: 'an object',
  array: 'a list',
  null: 'null',
};

const typeWords = (expected: string): string =>
  expected
    .split(',')
    .map((type) => TYPE_WORDS[type] ?? type)
    .join(' or ');

/** The message of a `pattern` error: the patterns of `trimmedText` say what they require. */
function patternMessage(pattern: string): string {
  const visible = `[^${BLANK}]`;
  if (pattern === visible) return 'must not be blank';
  if (pattern === `${visible}[\\s\\S]*${visible}`) return 'must have at least 2 characters besides spaces';
  return 'is not in the expected format';
}

function messageOf(error: ErrorObject): string {
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'type':
      return `must be ${typeWords(String(params['type']))}`;
    case 'enum':
      return `must be one of ${(params['allowedValues'] as unknown[]).map((value) => String(value)).join(', ')}`;
    case 'pattern':
      return patternMessage(String(params['pattern']));
    case 'minLength':
      return `must have at least ${String(params['limit'])} characters`;
    case 'maxLength':
      return `must be at most ${String(params['limit'])} characters`;
    case 'minItems':
      return `must have at least ${String(params['limit'])} entries`;
    case 'maxItems':
      return `must have at most ${String(params['limit'])} entries`;
    case 'minProperties':
      return params['limit'] === 1
        ? 'must name at least one field to change'
        : `must have at least ${String(params['limit'])} fields`;
    case 'maxProperties':
      return `must have at most ${String(params['limit'])} fields`;
    case 'uniqueItems':
      return 'must not repeat an entry';
    default:
      return error.message ?? 'is invalid';
  }
}

export function bodyProblems(errors: ErrorObject[]): BodyProblem[] {
  const problems: BodyProblem[] = [];
  for (const error of errors) {
    // anyOf (a nullable reference) repeats its branches' errors; the branch errors say it better.
    if (error.keyword === 'anyOf' || error.keyword === 'if') continue;
    const path = error.instancePath.replace(/^\//, '').replace(/\//g, '.');
    if (error.keyword === 'required') {
      const missing = (error.params as { missingProperty: string }).missingProperty;
      problems.push({ field: path ? `${path}.${missing}` : missing, message: `${missing} is required` });
    } else if (error.keyword === 'additionalProperties') {
      const extra = (error.params as { additionalProperty: string }).additionalProperty;
      problems.push({ field: path ? `${path}.${extra}` : extra, message: `${extra} is not a known field` });
    } else {
      problems.push({ field: path || '(body)', message: `${path || 'body'} ${messageOf(error)}` });
    }
  }
  // One detail per field and message (a nullable type reports the same field twice).
  return problems.filter(
    (problem, index) =>
      problems.findIndex((other) => other.field === problem.field && other.message === problem.message) === index,
  );
}
