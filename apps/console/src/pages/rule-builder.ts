/**
 * The rule builder's rows and the rule body they make (spec 2.6, 2.7), and how a stored rule is
 * described in the list. Pure, so it is unit-tested without a browser.
 */
export const FIELDS = ['email', 'first_name', 'last_name', 'phone', 'status', 'source', 'vendor_id', 'program', 'program_interest', 'ip_address', 'user_agent', 'landing_page', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];
export const WRITABLE = ['first_name', 'last_name', 'phone', 'source', 'program', 'program_interest', 'landing_page', 'referrer', 'utm_source', 'utm_medium', 'utm_campaign', 'utm_term', 'utm_content'];
export const OPERATORS = ['equals', 'not_equals', 'contains', 'not_contains', 'starts_with', 'ends_with', 'is_empty', 'is_not_empty', 'greater_than', 'less_than', 'greater_than_or_equal', 'less_than_or_equal', 'in', 'not_in', 'matches_regex'] as const;
export const ACTION_TYPES = ['set_field', 'transform', 'calculate', 'flag', 'reject', 'lookup', 'webhook', 'stop_processing'] as const;
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
export const newAction = (): ActionRow => ({ type: 'set_field', field: 'program', value: '', reason: '', severity: 'medium', table_name: '', lookup_field: '', url: '', method: 'POST' });

/** A typed value: numbers stay numbers (for greater_than...), lists are split on commas. */
export function conditionValue(row: ConditionRow): unknown {
  if (row.operator === 'is_empty' || row.operator === 'is_not_empty') return undefined;
  if (row.operator === 'in' || row.operator === 'not_in') return row.value.split(',').map((item) => item.trim()).filter(Boolean);
  if (row.operator.startsWith('greater') || row.operator.startsWith('less')) return row.value.trim() !== '' && !Number.isNaN(Number(row.value)) ? Number(row.value) : row.value;
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
    .map((rule) => ('rules' in rule ? `(${describeConditions(rule)})` : `${String(rule['field'])} ${String(rule['operator'])}${rule['value'] === undefined ? '' : ` ${JSON.stringify(rule['value'])}`}`))
    .join(group['operator'] === 'OR' ? ' OR ' : ' AND ');
}

export function describeAction(action: Record<string, unknown>): string {
  const { type, ...rest } = action;
  return `${String(type)} ${Object.entries(rest)
    .map(([key, value]) => `${key}=${JSON.stringify(value)}`)
    .join(' ')}`.trim();
}

/** The condition group of the builder's rows (`value` left out where the operator takes none). */
export function ruleConditions(operator: 'AND' | 'OR', rows: ConditionRow[]): { operator: 'AND' | 'OR'; rules: Array<Record<string, unknown>> } {
  return {
    operator,
    rules: rows.map((row) => {
      const value = conditionValue(row);
      return { field: row.field, operator: row.operator, ...(value === undefined ? {} : { value }) };
    }),
  };
}
