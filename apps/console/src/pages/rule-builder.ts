/**
 * The rule builder's rows and the rule body they make (docs/enrichment-rules.md), and how a stored
 * rule is described in the list. Pure, so it is unit-tested without a browser.
 */
export const FIELDS = [
  'email',
  'first_name',
  'last_name',
  'phone',
  'status',
  'source',
  'vendor_id',
  'program',
  'program_interest',
  'ip_address',
  'user_agent',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
];
export const WRITABLE = [
  'first_name',
  'last_name',
  'phone',
  'source',
  'program',
  'program_interest',
  'landing_page',
  'referrer',
  'utm_source',
  'utm_medium',
  'utm_campaign',
  'utm_term',
  'utm_content',
];
export const OPERATORS = [
  'equals',
  'not_equals',
  'contains',
  'not_contains',
  'starts_with',
  'ends_with',
  'is_empty',
  'is_not_empty',
  'greater_than',
  'less_than',
  'greater_than_or_equal',
  'less_than_or_equal',
  'in',
  'not_in',
  'matches_regex',
] as const;
export const ACTION_TYPES = [
  'set_field',
  'transform',
  'calculate',
  'flag',
  'reject',
  'lookup',
  'webhook',
  'stop_processing',
] as const;
export const TRANSFORMATIONS = ['uppercase', 'lowercase', 'titlecase', 'trim', 'phone_format', 'email_domain'];

export interface ConditionRow {
  field: string;
  operator: (typeof OPERATORS)[number];
  value: string;
}
export interface ActionRow {
  type: (typeof ACTION_TYPES)[number];
  field: string;
  value: string;
  reason: string;
  severity: string;
  table_name: string;
  lookup_field: string;
  url: string;
  method: string;
}

export const newCondition = (): ConditionRow => ({ field: 'email', operator: 'ends_with', value: '' });
export const newAction = (): ActionRow => ({
  type: 'set_field',
  field: 'program',
  value: '',
  reason: '',
  severity: 'medium',
  table_name: '',
  lookup_field: '',
  url: '',
  method: 'POST',
});

/** A typed value: numbers stay numbers (for greater_than...), lists are split on commas. */
export function conditionValue(row: ConditionRow): unknown {
  if (row.operator === 'is_empty' || row.operator === 'is_not_empty') return undefined;
  if (row.operator === 'in' || row.operator === 'not_in')
    return row.value
      .split(',')
      .map((item) => item.trim())
      .filter(Boolean);
  if (row.operator.startsWith('greater') || row.operator.startsWith('less'))
    return row.value.trim() !== '' && !Number.isNaN(Number(row.value)) ? Number(row.value) : row.value;
  return row.value;
}

export function ruleAction(row: ActionRow): Record<string, unknown> {
  switch (row.type) {
    case 'set_field':
      return { type: row.type, field: row.field, value: row.value };
    case 'transform':
      return { type: row.type, field: row.field, transformation: row.value || 'titlecase' };
    case 'calculate':
      return { type: row.type, field: row.field, formula: row.value };
    case 'flag':
      return { type: row.type, reason: row.reason, severity: row.severity };
    case 'reject':
      return { type: row.type, reason: row.reason };
    case 'lookup':
      return { type: row.type, target_field: row.field, table_name: row.table_name, lookup_field: row.lookup_field };
    case 'webhook':
      return { type: row.type, url: row.url, method: row.method };
    case 'stop_processing':
      return { type: row.type };
  }
}

export function describeConditions(group: Record<string, unknown>): string {
  const rules = Array.isArray(group['rules']) ? (group['rules'] as Array<Record<string, unknown>>) : [];
  return rules
    .map((rule) =>
      'rules' in rule
        ? `(${describeConditions(rule)})`
        : `${String(rule['field'])} ${String(rule['operator'])}${rule['value'] === undefined ? '' : ` ${JSON.stringify(rule['value'])}`}`,
    )
    .join(group['operator'] === 'OR' ? ' OR ' : ' AND ');
}

export function describeAction(action: Record<string, unknown>): string {
  const { type, ...rest } = action;
  return `${String(type)} ${Object.entries(rest)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(' ')}`.trim();
}

/** The condition group of the builder's rows (`value` left out where the operator takes none). */
export function ruleConditions(
  operator: 'AND' | 'OR',
  rows: ConditionRow[],
): { operator: 'AND' | 'OR'; rules: Array<Record<string, unknown>> } {
  return {
    operator,
    rules: rows.map((row) => {
      const value = conditionValue(row);
      return { field: row.field, operator: row.operator, ...(value === undefined ? {} : { value }) };
    }),
  };
}

/** What the builder shows of a stored rule, or null when it holds more than the builder can edit. */
export interface BuilderRows {
  operator: 'AND' | 'OR';
  conditions: ConditionRow[];
  actions: ActionRow[];
}

const ACTION_KEYS: Record<(typeof ACTION_TYPES)[number], string[]> = {
  set_field: ['field', 'value'],
  transform: ['field', 'transformation'],
  calculate: ['field', 'formula'],
  flag: ['reason', 'severity'],
  reject: ['reason'],
  lookup: ['target_field', 'table_name', 'lookup_field'],
  webhook: ['url', 'method'],
  stop_processing: [],
};

function text(value: unknown): string {
  return typeof value === 'string' ? value : value === undefined || value === null ? '' : JSON.stringify(value);
}

/**
 * The builder's rows for a stored rule: a flat group of leaf conditions and actions with text
 * values. Nested groups, non-text set_field values and webhook payloads or headers are kept intact
 * by answering null (the rule is then not edited in the builder, so nothing is lost).
 */
export function builderRowsOf(rule: {
  conditions: Record<string, unknown>;
  actions: Array<Record<string, unknown>>;
}): BuilderRows | null {
  const group = conditionRowsOf(rule.conditions);
  if (!group) return null;
  const { operator, conditions } = group;
  const actions: ActionRow[] = [];
  for (const action of rule.actions) {
    const type = action['type'] as ActionRow['type'];
    const keys = ACTION_KEYS[type];
    if (!keys || Object.keys(action).some((key) => key !== 'type' && !keys.includes(key))) return null;
    if (type === 'set_field' && typeof action['value'] !== 'string') return null;
    const row = { ...newAction(), type };
    if (type === 'lookup')
      Object.assign(row, {
        field: text(action['target_field']),
        table_name: text(action['table_name']),
        lookup_field: text(action['lookup_field']),
      });
    else if (type === 'transform')
      Object.assign(row, { field: text(action['field']), value: text(action['transformation']) });
    else if (type === 'calculate') Object.assign(row, { field: text(action['field']), value: text(action['formula']) });
    else if (type === 'set_field') Object.assign(row, { field: text(action['field']), value: text(action['value']) });
    else if (type === 'flag')
      Object.assign(row, { reason: text(action['reason']), severity: text(action['severity']) || 'medium' });
    else if (type === 'reject') Object.assign(row, { reason: text(action['reason']) });
    else if (type === 'webhook')
      Object.assign(row, { url: text(action['url']), method: text(action['method']) || 'POST' });
    actions.push(row);
  }
  return conditions.length > 0 && actions.length > 0 ? { operator, conditions, actions } : null;
}

/**
 * The builder's condition rows of a stored condition group (none for a missing group: routing's
 * "every lead"), or null when it holds what the builder cannot show (nested groups, other values).
 */
export function conditionRowsOf(
  group: Record<string, unknown> | null | undefined,
): { operator: 'AND' | 'OR'; conditions: ConditionRow[] } | null {
  if (!group) return { operator: 'AND', conditions: [] };
  const operator = group['operator'] === 'OR' ? 'OR' : 'AND';
  const leaves = Array.isArray(group['rules']) ? (group['rules'] as Array<Record<string, unknown>>) : [];
  const conditions: ConditionRow[] = [];
  for (const leaf of leaves) {
    if ('rules' in leaf || !(OPERATORS as readonly unknown[]).includes(leaf['operator'])) return null;
    const value = leaf['value'];
    const operatorName = leaf['operator'] as ConditionRow['operator'];
    if (Array.isArray(value) && !value.every((item) => typeof item === 'string' && !item.includes(','))) return null;
    if (value !== undefined && !Array.isArray(value) && typeof value !== 'string' && typeof value !== 'number')
      return null;
    // A number stays a number only where the builder reads one back (the order operators).
    if (typeof value === 'number' && !/^(greater|less)_/.test(operatorName)) return null;
    conditions.push({
      field: text(leaf['field']),
      operator: operatorName,
      value: Array.isArray(value) ? value.join(', ') : text(value),
    });
  }
  return { operator, conditions };
}
