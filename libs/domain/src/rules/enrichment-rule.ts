/**
 * The enrichment rule resource (docs/enrichment-rules.md; `createEnrichmentRule`) as a request
 * body. Every problem is reported once with its path (`conditions.rules[1].rules[0].operator`), so
 * a rule editor can point at it. Checks: known operators and actions, values of the right shape for
 * each operator, RE2 patterns that compile, field paths that name a lead field, no text operator on
 * a number custom field and no ordering operator between a text field and a value that is neither a
 * number nor a date, groups at most 10 deep and 100 wide, 1-20 actions, webhook headers safe to
 * send (no line breaks, no Host and the like).
 */
import { trimBlank } from '../accounts/input';
import type { ErrorDetail } from '../errors';
import { outboundHeaderProblem } from '../outbound/outbound-headers';
import { customFieldValueProblem } from '../validation/json-nesting';
import {
  asInstant,
  asNumber,
  LEAF_OPERATORS,
  type ConditionGroup,
  type ConditionLeaf,
  type LeafOperator,
} from './condition';
import { fieldPathProblem, RULE_TOP_FIELDS } from './field-path';
import { patternProblem } from './pattern-matcher';
import { ACTION_TYPES, FLAG_SEVERITIES, TRANSFORMATIONS, WEBHOOK_METHODS, type RuleAction } from './rule-action';
import type { EnrichmentRule } from './run-rules';

export type EnrichmentRuleSettings = Omit<EnrichmentRule, 'id' | 'created_at' | 'updated_at'>;
export type EnrichmentRuleParse = { ok: true; value: EnrichmentRuleSettings } | { ok: false; details: ErrorDetail[] };

export interface KnownNames {
  customFields?: ReadonlyArray<{ name: string; type: string }>;
  lookupTables?: ReadonlySet<string>;
}

export const MAX_CONDITION_DEPTH = 10;
export const MAX_GROUP_MEMBERS = 100;
export const MAX_ACTIONS = 20;
/** matches_regex conditions one rule may hold: each compiles in up to a few tenths of a second within the pattern limits. */
export const MAX_REGEX_CONDITIONS = 10;
const MAX_LIST = 1_000;
const MAX_NAME = 200;
const MAX_TEXT = 2_000;
const KEYS = ['name', 'description', 'priority', 'enabled', 'conditions', 'actions'] as const;
const TEXT_OPERATORS: readonly LeafOperator[] = [
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'matches_regex',
];
const ORDER_OPERATORS: readonly LeafOperator[] = [
  'greater_than',
  'less_than',
  'greater_than_or_equal',
  'less_than_or_equal',
];
/** Lead fields holding free text, which an ordering operator can only compare with a date. */
const TEXT_FIELDS = new Set<string>(RULE_TOP_FIELDS);

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKeys(body: Record<string, unknown>, allowed: readonly string[], prefix: string): ErrorDetail[] {
  return Object.keys(body)
    .filter((key) => !allowed.includes(key))
    .map((key) => ({ field: `${prefix}${key}`, message: `${key} is not a field here (${allowed.join(', ')})` }));
}

/** POST /api/enrichment/rules. */
export function parseEnrichmentRuleCreate(body: unknown, known: KnownNames = {}): EnrichmentRuleParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  return parseRule(
    body,
    {
      name: '',
      description: null,
      priority: 0,
      enabled: true,
      conditions: { operator: 'AND', rules: [] },
      actions: [],
    },
    known,
    true,
  );
}

/** PATCH /api/enrichment/rules/:id: any subset of the rule's fields. */
export function parseEnrichmentRulePatch(
  body: unknown,
  current: EnrichmentRuleSettings,
  known: KnownNames = {},
): EnrichmentRuleParse {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  return parseRule(body, current, known, false);
}

function parseRule(
  body: Record<string, unknown>,
  base: EnrichmentRuleSettings,
  known: KnownNames,
  creating: boolean,
): EnrichmentRuleParse {
  const details = unknownKeys(body, KEYS, '');
  const value: EnrichmentRuleSettings = {
    name: base.name,
    description: base.description,
    priority: base.priority,
    enabled: base.enabled,
    conditions: base.conditions,
    actions: base.actions,
  };
  const has = (key: string) => creating || key in body;
  if (has('name')) {
    const name = body['name'];
    if (typeof name !== 'string' || trimBlank(name) === '' || name.length > MAX_NAME)
      details.push({ field: 'name', message: `name is required: text of 1-${MAX_NAME} characters` });
    else value.name = trimBlank(name);
  }
  if ('description' in body) {
    const description = body['description'];
    if (description !== null && (typeof description !== 'string' || description.length > MAX_TEXT))
      details.push({
        field: 'description',
        message: `description must be text of at most ${MAX_TEXT} characters, or null`,
      });
    else value.description = description;
  }
  if (has('priority')) {
    const priority = body['priority'];
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 1_000_000)
      details.push({
        field: 'priority',
        message: 'priority is required: a whole number from 0 to 1000000 (lower runs earlier)',
      });
    else value.priority = priority;
  }
  if ('enabled' in body) {
    if (typeof body['enabled'] !== 'boolean')
      details.push({ field: 'enabled', message: 'enabled must be true or false' });
    else value.enabled = body['enabled'];
  }
  if (has('conditions')) {
    if (body['conditions'] === undefined)
      details.push({
        field: 'conditions',
        message: 'conditions is required: a condition group {operator: AND|OR, rules: [...]}',
      });
    else {
      const problems = conditionProblems(body['conditions'], 'conditions', 1, known);
      if (problems.length > 0) details.push(...problems);
      else value.conditions = normalizeGroup(body['conditions'] as ConditionGroup);
    }
  }
  if (has('actions')) {
    const actions = body['actions'];
    if (!Array.isArray(actions) || actions.length === 0 || actions.length > MAX_ACTIONS)
      details.push({ field: 'actions', message: `actions is required: a list of 1-${MAX_ACTIONS} actions` });
    else {
      const problems = actions.flatMap((action, index) => actionProblems(action, `actions[${index}]`, known));
      if (problems.length > 0) details.push(...problems);
      else value.actions = actions.map(normalizeAction);
    }
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}

/**
 * A condition group as a request body gives it (`path` names it in details), checked and
 * normalized the way enrichment rules' conditions are; routing rules use the same conditions.
 */
export function parseConditionGroup(
  value: unknown,
  path: string,
  known: KnownNames = {},
): { ok: true; value: ConditionGroup } | { ok: false; details: ErrorDetail[] } {
  const problems = conditionProblems(value, path, 1, known);
  return problems.length > 0
    ? { ok: false, details: problems }
    : { ok: true, value: normalizeGroup(value as ConditionGroup) };
}

function conditionProblems(group: unknown, path: string, depth: number, known: KnownNames): ErrorDetail[] {
  if (!isObject(group)) return [{ field: path, message: 'must be a condition group {operator: AND|OR, rules: [...]}' }];
  if (depth === 1) {
    // Every pattern is compiled while the rule is saved, on the API's one thread: this bounds that work per request.
    const patterns = regexConditionCount(group, 1);
    if (patterns > MAX_REGEX_CONDITIONS)
      return [
        {
          field: path,
          message: `conditions may hold at most ${MAX_REGEX_CONDITIONS} matches_regex conditions (found ${patterns})`,
        },
      ];
  }
  if (depth > MAX_CONDITION_DEPTH)
    return [{ field: path, message: `condition groups may nest at most ${MAX_CONDITION_DEPTH} deep` }];
  const details = unknownKeys(group, ['operator', 'rules'], `${path}.`);
  if (group['operator'] !== 'AND' && group['operator'] !== 'OR')
    details.push({ field: `${path}.operator`, message: 'operator must be AND or OR' });
  const members = group['rules'];
  if (!Array.isArray(members) || members.length === 0 || members.length > MAX_GROUP_MEMBERS) {
    details.push({ field: `${path}.rules`, message: `rules must list 1-${MAX_GROUP_MEMBERS} conditions or groups` });
    return details;
  }
  members.forEach((member, index) => {
    const memberPath = `${path}.rules[${index}]`;
    if (isObject(member) && 'rules' in member) details.push(...conditionProblems(member, memberPath, depth + 1, known));
    else details.push(...leafProblems(member, memberPath, known));
  });
  return details;
}

/** matches_regex conditions anywhere in the group, as deep as groups may nest. */
function regexConditionCount(group: Record<string, unknown>, depth: number): number {
  const members = group['rules'];
  if (depth > MAX_CONDITION_DEPTH || !Array.isArray(members)) return 0;
  let count = 0;
  for (const member of members) {
    if (isObject(member) && 'rules' in member) count += regexConditionCount(member, depth + 1);
    else if (isObject(member) && member['operator'] === 'matches_regex') count += 1;
  }
  return count;
}

function leafProblems(leaf: unknown, path: string, known: KnownNames): ErrorDetail[] {
  if (!isObject(leaf))
    return [{ field: path, message: 'must be a condition {field, operator, value} or a group {operator, rules}' }];
  const details = unknownKeys(leaf, ['field', 'operator', 'value'], `${path}.`);
  const fieldProblem = fieldPathProblem(leaf['field']);
  if (fieldProblem) details.push({ field: `${path}.field`, message: fieldProblem });
  const operator = leaf['operator'];
  if (typeof operator !== 'string' || !(LEAF_OPERATORS as readonly string[]).includes(operator)) {
    details.push({
      field: `${path}.operator`,
      message: `unknown operator ${JSON.stringify(operator)}; one of ${LEAF_OPERATORS.join(', ')}`,
    });
    return details;
  }
  const op = operator as LeafOperator;
  const value = leaf['value'];
  const valuePath = `${path}.value`;
  if (op === 'is_empty' || op === 'is_not_empty') {
    if ('value' in leaf && value !== null) details.push({ field: valuePath, message: `${op} takes no value` });
  } else if (op === 'in' || op === 'not_in') {
    if (!Array.isArray(value) || value.length === 0 || value.length > MAX_LIST || !value.every(isScalarOrNull))
      details.push({ field: valuePath, message: `${op} needs a list of 1-${MAX_LIST} strings, numbers or booleans` });
  } else if (op === 'matches_regex') {
    if (typeof value !== 'string' || value.length === 0 || value.length > MAX_TEXT)
      details.push({ field: valuePath, message: 'matches_regex needs a pattern (text)' });
    else {
      const problem = patternProblem(value);
      if (problem) details.push({ field: valuePath, message: problem });
    }
  } else if (ORDER_OPERATORS.includes(op)) {
    if (asNumber(value) === undefined && asInstant(value) === undefined)
      details.push({ field: valuePath, message: `${op} needs a number or an ISO 8601 date` });
  } else if (!isScalarOrNull(value) || value === undefined) {
    details.push({ field: valuePath, message: `${op} needs a value (text, number, boolean or null)` });
  }
  if (!fieldProblem && typeof leaf['field'] === 'string')
    details.push(...typeMismatch(leaf['field'], op, value, path, known));
  return details;
}

/** An operator that cannot work on the field's type. */
function typeMismatch(
  field: string,
  operator: LeafOperator,
  value: unknown,
  path: string,
  known: KnownNames,
): ErrorDetail[] {
  const custom = field.startsWith('custom_fields.')
    ? known.customFields?.find((definition) => definition.name === field.slice('custom_fields.'.length))
    : undefined;
  if (custom && (custom.type === 'number' || custom.type === 'boolean') && TEXT_OPERATORS.includes(operator)) {
    return [{ field: `${path}.operator`, message: `${operator} compares text; ${field} is a ${custom.type} field` }];
  }
  if (custom && custom.type === 'string' && ORDER_OPERATORS.includes(operator) && asInstant(value) === undefined) {
    return [{ field: `${path}.operator`, message: `${operator} compares numbers or dates; ${field} is a text field` }];
  }
  if (TEXT_FIELDS.has(field) && ORDER_OPERATORS.includes(operator) && asInstant(value) === undefined) {
    return [{ field: `${path}.operator`, message: `${operator} compares numbers or dates; ${field} is a text field` }];
  }
  return [];
}

function isScalarOrNull(value: unknown): boolean {
  return (
    value === null ||
    typeof value === 'string' ||
    typeof value === 'boolean' ||
    (typeof value === 'number' && Number.isFinite(value))
  );
}

function nonEmptyText(value: unknown, max = MAX_TEXT): value is string {
  return typeof value === 'string' && trimBlank(value) !== '' && value.length <= max;
}

function actionProblems(action: unknown, path: string, known: KnownNames): ErrorDetail[] {
  if (!isObject(action)) return [{ field: path, message: 'must be an action object with a type' }];
  const type = action['type'];
  if (typeof type !== 'string' || !(ACTION_TYPES as readonly string[]).includes(type))
    return [
      {
        field: `${path}.type`,
        message: `unknown action type ${JSON.stringify(type)}; one of ${ACTION_TYPES.join(', ')}`,
      },
    ];
  const details: ErrorDetail[] = [];
  const target = (key: string) => {
    const problem = fieldPathProblem(action[key], true);
    if (problem) details.push({ field: `${path}.${key}`, message: problem });
  };
  switch (type) {
    case 'set_field':
      details.push(...unknownKeys(action, ['type', 'field', 'value'], `${path}.`));
      target('field');
      if (action['field'] === 'email')
        details.push({
          field: `${path}.field`,
          message: "email is the lead's identity; set_field cannot replace it (a transform can normalize it)",
        });
      if (!('value' in action))
        details.push({ field: `${path}.value`, message: `value is required (at most ${MAX_TEXT} characters of JSON)` });
      else {
        // The value lands on leads: it must be one a lead can hold, as a submitted custom field.
        const unholdable = customFieldValueProblem(String(action['field']).split('.').pop() ?? '', action['value']);
        if (unholdable) details.push({ field: `${path}.value`, message: `value ${unholdable}` });
        else if (JSON.stringify(action['value'] ?? null).length > MAX_TEXT)
          details.push({
            field: `${path}.value`,
            message: `value is required (at most ${MAX_TEXT} characters of JSON)`,
          });
      }
      break;
    case 'transform':
      details.push(...unknownKeys(action, ['type', 'field', 'transformation'], `${path}.`));
      target('field');
      if (!(TRANSFORMATIONS as readonly unknown[]).includes(action['transformation']))
        details.push({
          field: `${path}.transformation`,
          message: `transformation must be one of ${TRANSFORMATIONS.join(', ')}`,
        });
      break;
    case 'calculate':
      details.push(...unknownKeys(action, ['type', 'field', 'formula'], `${path}.`));
      target('field');
      if (!nonEmptyText(action['formula']))
        details.push({
          field: `${path}.formula`,
          message: `formula is required: a template of at most ${MAX_TEXT} characters`,
        });
      break;
    case 'reject':
      details.push(...unknownKeys(action, ['type', 'reason'], `${path}.`));
      if (!nonEmptyText(action['reason'], 500))
        details.push({ field: `${path}.reason`, message: 'reason is required: text of 1-500 characters' });
      break;
    case 'flag':
      details.push(...unknownKeys(action, ['type', 'reason', 'severity'], `${path}.`));
      if (!nonEmptyText(action['reason'], 500))
        details.push({ field: `${path}.reason`, message: 'reason is required: text of 1-500 characters' });
      if (action['severity'] !== undefined && !(FLAG_SEVERITIES as readonly unknown[]).includes(action['severity']))
        details.push({ field: `${path}.severity`, message: `severity must be one of ${FLAG_SEVERITIES.join(', ')}` });
      break;
    case 'webhook': {
      details.push(...unknownKeys(action, ['type', 'url', 'method', 'payload', 'headers'], `${path}.`));
      const url = action['url'];
      let parsed: URL | undefined;
      try {
        parsed = typeof url === 'string' && url.length <= MAX_TEXT ? new URL(url) : undefined;
      } catch {
        parsed = undefined;
      }
      if (!parsed || (parsed.protocol !== 'https:' && parsed.protocol !== 'http:'))
        details.push({ field: `${path}.url`, message: 'url is required: an https URL' });
      if (action['method'] !== undefined && !(WEBHOOK_METHODS as readonly unknown[]).includes(action['method']))
        details.push({ field: `${path}.method`, message: `method must be one of ${WEBHOOK_METHODS.join(', ')}` });
      if (
        action['payload'] !== undefined &&
        (!isObject(action['payload']) || JSON.stringify(action['payload']).length > 10_000)
      )
        details.push({
          field: `${path}.payload`,
          message: 'payload must be an object (at most 10000 characters of JSON)',
        });
      const headers = action['headers'];
      if (
        headers !== undefined &&
        (!isObject(headers) || !Object.values(headers).every((header) => typeof header === 'string'))
      )
        details.push({ field: `${path}.headers`, message: 'headers must be an object of text values' });
      else if (headers !== undefined) {
        for (const [name, header] of Object.entries(headers)) {
          const problem = outboundHeaderProblem(name, header as string);
          if (problem) details.push({ field: `${path}.headers.${name}`, message: problem });
        }
      }
      break;
    }
    case 'lookup':
      details.push(...unknownKeys(action, ['type', 'target_field', 'table_name', 'lookup_field'], `${path}.`));
      target('target_field');
      {
        const problem = fieldPathProblem(action['lookup_field']);
        if (problem) details.push({ field: `${path}.lookup_field`, message: problem });
      }
      if (!nonEmptyText(action['table_name'], 64))
        details.push({ field: `${path}.table_name`, message: 'table_name is required: the name of a lookup table' });
      else if (known.lookupTables && !known.lookupTables.has(action['table_name']))
        details.push({ field: `${path}.table_name`, message: `no lookup table named ${action['table_name']}` });
      break;
    case 'stop_processing':
      details.push(...unknownKeys(action, ['type'], `${path}.`));
      break;
  }
  return details;
}

function normalizeGroup(group: ConditionGroup): ConditionGroup {
  return {
    operator: group.operator,
    rules: group.rules.map((member) => ('rules' in member ? normalizeGroup(member) : normalizeLeaf(member))),
  };
}

function normalizeLeaf(leaf: ConditionLeaf): ConditionLeaf {
  return leaf.operator === 'is_empty' || leaf.operator === 'is_not_empty'
    ? { field: leaf.field, operator: leaf.operator }
    : { field: leaf.field, operator: leaf.operator, value: leaf.value };
}

function normalizeAction(action: Record<string, unknown>): RuleAction {
  if (action['type'] === 'flag')
    return {
      type: 'flag',
      reason: String(action['reason']),
      severity: (action['severity'] as 'low' | 'medium' | 'high' | undefined) ?? 'medium',
    };
  if (action['type'] === 'webhook') {
    return {
      type: 'webhook',
      url: String(action['url']),
      method: (action['method'] as 'POST' | undefined) ?? 'POST',
      ...(action['payload'] !== undefined ? { payload: action['payload'] as Record<string, unknown> } : {}),
      ...(action['headers'] !== undefined ? { headers: action['headers'] as Record<string, string> } : {}),
    };
  }
  return { ...action } as RuleAction;
}

/** POST /api/enrichment/rules/reorder: `{rules:[{id, priority}]}`. */
export function parseRuleReorder(
  body: unknown,
): { ok: true; value: Array<{ id: string; priority: number }> } | { ok: false; details: ErrorDetail[] } {
  if (!isObject(body) || !Array.isArray(body['rules']) || body['rules'].length === 0 || body['rules'].length > 1_000) {
    return { ok: false, details: [{ field: 'rules', message: 'rules is required: a list of 1-1000 {id, priority}' }] };
  }
  const details: ErrorDetail[] = unknownKeys(body, ['rules'], '');
  const seen = new Set<string>();
  (body['rules'] as unknown[]).forEach((entry, index) => {
    const path = `rules[${index}]`;
    if (!isObject(entry)) return details.push({ field: path, message: 'must be {id, priority}' });
    details.push(...unknownKeys(entry, ['id', 'priority'], `${path}.`));
    if (typeof entry['id'] !== 'string' || entry['id'] === '')
      details.push({ field: `${path}.id`, message: 'id is required' });
    else if (seen.has(entry['id'])) details.push({ field: `${path}.id`, message: `${entry['id']} is listed twice` });
    else seen.add(entry['id']);
    const priority = entry['priority'];
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 1_000_000)
      details.push({ field: `${path}.priority`, message: 'priority must be a whole number from 0 to 1000000' });
    return undefined;
  });
  return details.length > 0
    ? { ok: false, details }
    : {
        ok: true,
        value: (body['rules'] as Array<{ id: string; priority: number }>).map(({ id, priority }) => ({ id, priority })),
      };
}
