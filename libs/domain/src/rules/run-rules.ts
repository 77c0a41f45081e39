/**
 * A run of an organization's enrichment rules over one lead (spec 4.7): enabled rules in
 * ascending priority (ties: creation time, then id); each matching rule's actions in order; a
 * `reject` or `stop_processing` ends the rule and every later rule, which are then reported as
 * not matched with the reason. The answer is the 2.7a test result plus what the enrich stage
 * needs: the changed subject, the changes per rule, the flags and the webhooks to send.
 * Pure and total: no I/O, and no rule that passed parsing can make it throw.
 */
import { evaluateConditions, type ConditionGroup } from './condition';
import { getFieldValue, setFieldValue, type RuleSubject } from './field-path';
import { transformValue, type RuleAction } from './rule-action';

export interface EnrichmentRule {
  id: string;
  name: string;
  description: string | null;
  priority: number;
  enabled: boolean;
  conditions: ConditionGroup;
  actions: RuleAction[];
  created_at: string;
  updated_at: string;
}

export interface RuleRunContext {
  lookupTables: ReadonlyMap<string, Readonly<Record<string, string>>>;
  /** Evaluates a `calculate` formula into the target field (the formula language is injected). */
  calculate: (formula: string, subject: RuleSubject, field: string) => { ok: true; value: unknown } | { ok: false; error: string };
}

export interface ActionTaken {
  type: RuleAction['type'];
  field?: string;
  from?: unknown;
  to?: unknown;
  reason?: string;
  severity?: string;
  url?: string;
  note?: string;
}

/** One entry of the 2.7a `results`. */
export interface RuleResult {
  rule_id: string;
  rule_name: string;
  priority: number;
  matched: boolean;
  actions_taken?: ActionTaken[];
  processing_stopped?: boolean;
  reason?: string;
}

export interface RuleRun {
  results: RuleResult[];
  final_outcome: 'accepted' | 'flagged' | 'rejected';
  rejection_reason: string | null;
  rejected_by: string | null;
  subject: RuleSubject;
  changes: Array<{ rule_id: string; changes: Record<string, { from: unknown; to: unknown }> }>;
  flags: Array<{ rule_id: string; reason: string; severity: string }>;
  webhooks: Array<{ rule_id: string; url: string; method: string; headers: Record<string, string>; body: Record<string, unknown> | null }>;
  matched_rule_ids: string[];
}

/** Enabled rules in the order they run. */
export function ruleOrder(rules: readonly EnrichmentRule[]): EnrichmentRule[] {
  return rules
    .filter((rule) => rule.enabled)
    .sort((a, b) => a.priority - b.priority || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

export function runRules(rules: readonly EnrichmentRule[], subject: RuleSubject, context: RuleRunContext): RuleRun {
  const run: RuleRun = { results: [], final_outcome: 'accepted', rejection_reason: null, rejected_by: null, subject, changes: [], flags: [], webhooks: [], matched_rule_ids: [] };
  let stoppedBy: string | null = null;
  for (const rule of ruleOrder(rules)) {
    const base = { rule_id: rule.id, rule_name: rule.name, priority: rule.priority };
    if (stoppedBy) {
      run.results.push({ ...base, matched: false, reason: `processing stopped by rule ${stoppedBy}` });
      continue;
    }
    if (!safeEvaluate(rule.conditions, run.subject)) {
      run.results.push({ ...base, matched: false, reason: 'conditions not met' });
      continue;
    }
    run.matched_rule_ids.push(rule.id);
    const taken: ActionTaken[] = [];
    const changes: Record<string, { from: unknown; to: unknown }> = {};
    let stopped = false;
    for (const action of rule.actions) {
      const outcome = applyAction(action, rule.id, run, context);
      taken.push(outcome.taken);
      if (outcome.change) changes[outcome.change.field] = { from: changes[outcome.change.field]?.from ?? outcome.change.from, to: outcome.change.to };
      if (outcome.stop) {
        stopped = true;
        break;
      }
    }
    if (Object.keys(changes).length > 0) run.changes.push({ rule_id: rule.id, changes });
    run.results.push({ ...base, matched: true, actions_taken: taken, processing_stopped: stopped });
    if (stopped) stoppedBy = rule.id;
  }
  if (run.final_outcome !== 'rejected' && run.flags.length > 0) run.final_outcome = 'flagged';
  return run;
}

function safeEvaluate(conditions: ConditionGroup, subject: RuleSubject): boolean {
  try {
    return evaluateConditions(conditions, subject);
  } catch {
    return false;
  }
}

interface ActionOutcome {
  taken: ActionTaken;
  change?: { field: string; from: unknown; to: unknown };
  stop?: boolean;
}

/** Writes `value` into `field` of the run's subject; the change when the value differs. */
function write(run: RuleRun, field: string, value: unknown): ActionOutcome['change'] {
  const from = getFieldValue(run.subject, field);
  if (JSON.stringify(from ?? null) === JSON.stringify(value ?? null)) return undefined;
  run.subject = setFieldValue(run.subject, field, value);
  return { field, from: from ?? null, to: value };
}

function applyAction(action: RuleAction, ruleId: string, run: RuleRun, context: RuleRunContext): ActionOutcome {
  switch (action.type) {
    case 'set_field': {
      const change = write(run, action.field, renderTemplate(action.value, run.subject));
      return { taken: { type: 'set_field', field: action.field, from: change?.from ?? getFieldValue(run.subject, action.field) ?? null, to: getFieldValue(run.subject, action.field) ?? null }, ...(change ? { change } : {}) };
    }
    case 'transform': {
      const current = getFieldValue(run.subject, action.field);
      const next = transformValue(current, action.transformation);
      if (next === undefined) return { taken: { type: 'transform', field: action.field, note: `${action.transformation} does not apply to ${current === undefined || current === null ? 'an empty field' : 'this value'}` } };
      const change = write(run, action.field, next);
      return { taken: { type: 'transform', field: action.field, from: current ?? null, to: next }, ...(change ? { change } : {}) };
    }
    case 'calculate': {
      let result: ReturnType<RuleRunContext['calculate']>;
      try {
        result = context.calculate(action.formula, run.subject, action.field);
      } catch (error) {
        result = { ok: false, error: error instanceof Error ? error.message : String(error) };
      }
      const value = result.ok ? result.value : null;
      const change = write(run, action.field, value);
      return { taken: { type: 'calculate', field: action.field, to: value, ...(result.ok ? {} : { note: result.error }) }, ...(change ? { change } : {}) };
    }
    case 'lookup': {
      const key = getFieldValue(run.subject, action.lookup_field);
      const table = context.lookupTables.get(action.table_name);
      const found = table && (typeof key === 'string' || typeof key === 'number' || typeof key === 'boolean') ? lookupKey(table, String(key)) : undefined;
      if (found === undefined) {
        return { taken: { type: 'lookup', field: action.target_field, note: table ? `no entry for ${JSON.stringify(key ?? null)} in ${action.table_name}` : `no lookup table named ${action.table_name}` } };
      }
      const change = write(run, action.target_field, found);
      return { taken: { type: 'lookup', field: action.target_field, from: change?.from ?? found, to: found }, ...(change ? { change } : {}) };
    }
    case 'flag':
      run.flags.push({ rule_id: ruleId, reason: action.reason, severity: action.severity });
      return { taken: { type: 'flag', reason: action.reason, severity: action.severity } };
    case 'webhook': {
      const body = action.method === 'GET' ? null : ((renderTemplate(action.payload ?? {}, run.subject) as Record<string, unknown>) ?? {});
      run.webhooks.push({ rule_id: ruleId, url: action.url, method: action.method, headers: { ...(action.headers ?? {}) }, body });
      return { taken: { type: 'webhook', url: action.url } };
    }
    case 'reject':
      run.final_outcome = 'rejected';
      run.rejection_reason = action.reason;
      run.rejected_by = ruleId;
      return { taken: { type: 'reject', reason: action.reason }, stop: true };
    case 'stop_processing':
      return { taken: { type: 'stop_processing' }, stop: true };
    default:
      return { taken: { type: (action as { type: RuleAction['type'] }).type, note: 'unknown action' } };
  }
}

/** Exact key first, then a key equal ignoring case and surrounding spaces. */
function lookupKey(table: Readonly<Record<string, string>>, key: string): string | undefined {
  if (Object.prototype.hasOwnProperty.call(table, key)) return table[key];
  const wanted = key.trim().toLowerCase();
  for (const [candidate, value] of Object.entries(table)) if (candidate.trim().toLowerCase() === wanted) return value;
  return undefined;
}

const WHOLE_TAG = /^\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}$/;
const TAG = /\{\{\s*([A-Za-z0-9_.-]+)\s*\}\}/g;

/**
 * `{{path}}` in strings (deep in objects and lists) replaced by the subject's value: a string that
 * is exactly one tag keeps the value's JSON type; inside text, a missing value is empty.
 */
export function renderTemplate(value: unknown, subject: RuleSubject): unknown {
  if (typeof value === 'string') {
    const whole = WHOLE_TAG.exec(value);
    if (whole) return getFieldValue(subject, whole[1]!) ?? null;
    return value.replace(TAG, (_tag, path: string) => {
      const found = getFieldValue(subject, path);
      if (found === undefined || found === null) return '';
      return typeof found === 'string' || typeof found === 'number' || typeof found === 'boolean' ? String(found) : JSON.stringify(found);
    });
  }
  if (Array.isArray(value)) return value.map((item) => renderTemplate(item, subject));
  if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, renderTemplate(item, subject)]));
  return value;
}
