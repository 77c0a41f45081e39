/**
 * Routing rules and routing settings of an organization (docs/routing.md; docs/decisions.md
 * "Routing"): which CRM connection(s), and optionally which owner or queue there, receive a lead.
 *
 * A rule: `{name, description, priority, enabled, conditions, targets, distribution}`.
 * - conditions: the condition groups of enrichment rules (same checks, same evaluator); a rule
 *   without conditions matches every lead (a catch-all, e.g. "share all leads among counsellors").
 * - targets: 1-50 `{connection_id, owner, queue, weight}`; owner and queue are free text the CRM
 *   sync puts on the record (null when not set); weight only with `weighted`.
 * - distribution: `single` (exactly one target), `all` (every target: the lead goes to several
 *   CRMs, each connection once), `round_robin` (one target in turn, a counter per rule) or
 *   `weighted` (one target, chosen by a hash of the lead id into the weights: a redelivered lead
 *   lands where it landed before).
 * Settings: `{default_targets, when_unmatched}`: where a lead no rule matches goes; with no
 * default targets, `when_unmatched: all_connections` (the default) sends it to every enabled CRM
 * connection of the organization, `none` keeps it unrouted.
 */
import { trimBlank } from '../accounts/input';
import type { ErrorDetail } from '../errors';
import type { ConditionGroup } from '../rules/condition';
import { parseConditionGroup, type KnownNames } from '../rules/enrichment-rule';

export const ROUTING_DISTRIBUTIONS = ['single', 'all', 'round_robin', 'weighted'] as const;
export type RoutingDistribution = (typeof ROUTING_DISTRIBUTIONS)[number];
export const ROUTING_UNMATCHED = ['all_connections', 'none'] as const;
export type RoutingUnmatched = (typeof ROUTING_UNMATCHED)[number];

export const MAX_ROUTING_TARGETS = 50;
export const MAX_ROUTING_WEIGHT = 1_000;
const MAX_NAME = 200;
const MAX_TEXT = 2_000;
const MAX_ID = 100;
const MAX_ASSIGNEE = 200;

/** Where a lead goes: one CRM connection and what to assign the record to there. */
export interface RoutingDestination {
  connection_id: string;
  owner: string | null;
  queue: string | null;
}

/** A rule's target; `weight` is set exactly when the rule's distribution is `weighted`. */
export interface RoutingTarget extends RoutingDestination {
  weight: number | null;
}

export interface RoutingRuleSettings {
  name: string;
  description: string | null;
  priority: number;
  enabled: boolean;
  conditions: ConditionGroup;
  targets: RoutingTarget[];
  distribution: RoutingDistribution;
}

export interface RoutingRule extends RoutingRuleSettings {
  id: string;
  created_at: string;
  updated_at: string;
}

export interface RoutingSettings {
  /** Where a lead that no rule matches goes (every target receives it); empty: see when_unmatched. */
  default_targets: RoutingDestination[];
  /** With no rule matching and no default targets: every enabled CRM connection, or nowhere. */
  when_unmatched: RoutingUnmatched;
}

export const DEFAULT_ROUTING_SETTINGS: RoutingSettings = { default_targets: [], when_unmatched: 'all_connections' };

/** A condition group that holds for every lead: AND over nothing. */
export const MATCH_EVERY_LEAD: ConditionGroup = { operator: 'AND', rules: [] };

export type RoutingParse<T> = { ok: true; value: T } | { ok: false; details: ErrorDetail[] };

const RULE_KEYS = ['name', 'description', 'priority', 'enabled', 'conditions', 'targets', 'distribution'] as const;
const SETTINGS_KEYS = ['default_targets', 'when_unmatched'] as const;

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function unknownKeys(body: Record<string, unknown>, allowed: readonly string[], prefix: string): ErrorDetail[] {
  return Object.keys(body)
    .filter((key) => !allowed.includes(key))
    .map((key) => ({ field: `${prefix}${key}`, message: `${key} is not a field here (${allowed.join(', ')})` }));
}

/** POST /api/routing/rules. */
export function parseRoutingRuleCreate(body: unknown, known: KnownNames = {}): RoutingParse<RoutingRuleSettings> {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  return parseRule(
    body,
    {
      name: '',
      description: null,
      priority: 0,
      enabled: true,
      conditions: MATCH_EVERY_LEAD,
      targets: [],
      distribution: 'single',
    },
    known,
    true,
  );
}

/** PATCH /api/routing/rules/:id: any subset of the rule's fields; the result is checked as a whole. */
export function parseRoutingRulePatch(
  body: unknown,
  current: RoutingRuleSettings,
  known: KnownNames = {},
): RoutingParse<RoutingRuleSettings> {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  return parseRule(body, current, known, false);
}

function parseRule(
  body: Record<string, unknown>,
  base: RoutingRuleSettings,
  known: KnownNames,
  creating: boolean,
): RoutingParse<RoutingRuleSettings> {
  const details = unknownKeys(body, RULE_KEYS, '');
  const value: RoutingRuleSettings = { ...base };
  if (creating || 'name' in body) {
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
  if ('priority' in body) {
    const priority = body['priority'];
    if (typeof priority !== 'number' || !Number.isInteger(priority) || priority < 0 || priority > 1_000_000)
      details.push({
        field: 'priority',
        message: 'priority must be a whole number from 0 to 1000000 (lower is tried first)',
      });
    else value.priority = priority;
  }
  if ('enabled' in body) {
    if (typeof body['enabled'] !== 'boolean')
      details.push({ field: 'enabled', message: 'enabled must be true or false' });
    else value.enabled = body['enabled'];
  }
  if ('conditions' in body) {
    // null (or leaving it out on creation): the rule matches every lead.
    if (body['conditions'] === null) value.conditions = MATCH_EVERY_LEAD;
    else {
      const parsed = parseConditionGroup(body['conditions'], 'conditions', known);
      if (parsed.ok) value.conditions = parsed.value;
      else details.push(...parsed.details);
    }
  }
  if ('distribution' in body) {
    const distribution = body['distribution'];
    if (!(ROUTING_DISTRIBUTIONS as readonly unknown[]).includes(distribution))
      details.push({
        field: 'distribution',
        message: `distribution must be one of ${ROUTING_DISTRIBUTIONS.join(', ')}`,
      });
    else value.distribution = distribution as RoutingDistribution;
  }
  let targetsValid = true;
  if (creating || 'targets' in body) {
    const parsed = parseTargets(body['targets'], 'targets', true, 1);
    if (parsed.ok) value.targets = parsed.value;
    else {
      targetsValid = false;
      details.push(...parsed.details);
    }
  }
  if (targetsValid && !details.some((detail) => detail.field === 'distribution'))
    details.push(...distributionProblems(value, 'targets' in body));
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}

/** Targets that fit the distribution: one for single, distinct connections for all, weights exactly for weighted. */
function distributionProblems(rule: RoutingRuleSettings, targetsGiven: boolean): ErrorDetail[] {
  // Point at the field the request changed: a PATCH of the distribution alone names `distribution`.
  const where = targetsGiven ? 'targets' : 'distribution';
  const details: ErrorDetail[] = [];
  if (rule.distribution === 'single' && rule.targets.length !== 1) {
    details.push({
      field: where,
      message: `distribution single sends to exactly one target (${rule.targets.length} given); use all to send to several CRMs, round_robin or weighted to share leads among them`,
    });
  }
  if (rule.distribution === 'all') {
    const seen = new Set<string>();
    rule.targets.forEach((target, index) => {
      if (seen.has(target.connection_id))
        details.push({
          field: targetsGiven ? `targets[${index}].connection_id` : where,
          message: `connection ${target.connection_id} is listed twice; with distribution all a lead goes to each connection once`,
        });
      seen.add(target.connection_id);
    });
  }
  rule.targets.forEach((target, index) => {
    if (rule.distribution === 'weighted' && target.weight === null)
      details.push({
        field: targetsGiven ? `targets[${index}].weight` : where,
        message: `distribution weighted needs a weight (a whole number from 1 to ${MAX_ROUTING_WEIGHT}) on every target`,
      });
    if (rule.distribution !== 'weighted' && target.weight !== null)
      details.push({
        field: targetsGiven ? `targets[${index}].weight` : where,
        message: 'weight is only for distribution weighted',
      });
  });
  return details;
}

function optionalText(value: unknown, max: number): { ok: true; value: string | null } | { ok: false } {
  if (value === undefined || value === null) return { ok: true, value: null };
  if (typeof value !== 'string' || trimBlank(value) === '' || value.length > max) return { ok: false };
  return { ok: true, value: trimBlank(value) };
}

function parseTargets(value: unknown, path: string, weights: boolean, min: number): RoutingParse<RoutingTarget[]> {
  if (!Array.isArray(value) || value.length < min || value.length > MAX_ROUTING_TARGETS) {
    return {
      ok: false,
      details: [
        {
          field: path,
          message: `${path} must be a list of ${min}-${MAX_ROUTING_TARGETS} targets {connection_id, owner, queue${weights ? ', weight' : ''}}`,
        },
      ],
    };
  }
  const details: ErrorDetail[] = [];
  const targets: RoutingTarget[] = [];
  value.forEach((entry, index) => {
    const at = `${path}[${index}]`;
    if (!isObject(entry)) {
      details.push({
        field: at,
        message: `must be a target {connection_id, owner, queue${weights ? ', weight' : ''}}`,
      });
      return;
    }
    details.push(
      ...unknownKeys(
        entry,
        weights ? ['connection_id', 'owner', 'queue', 'weight'] : ['connection_id', 'owner', 'queue'],
        `${at}.`,
      ),
    );
    const connectionId = entry['connection_id'];
    const idOk = typeof connectionId === 'string' && trimBlank(connectionId) !== '' && connectionId.length <= MAX_ID;
    if (!idOk)
      details.push({
        field: `${at}.connection_id`,
        message: "connection_id is required: the id of one of the organization's CRM connections",
      });
    const owner = optionalText(entry['owner'], MAX_ASSIGNEE);
    if (!owner.ok)
      details.push({ field: `${at}.owner`, message: `owner must be text of 1-${MAX_ASSIGNEE} characters, or null` });
    const queue = optionalText(entry['queue'], MAX_ASSIGNEE);
    if (!queue.ok)
      details.push({ field: `${at}.queue`, message: `queue must be text of 1-${MAX_ASSIGNEE} characters, or null` });
    const weight = entry['weight'];
    const weightOk =
      weight === undefined ||
      weight === null ||
      (typeof weight === 'number' && Number.isInteger(weight) && weight >= 1 && weight <= MAX_ROUTING_WEIGHT);
    if (weights && !weightOk)
      details.push({ field: `${at}.weight`, message: `weight must be a whole number from 1 to ${MAX_ROUTING_WEIGHT}` });
    if (idOk && owner.ok && queue.ok && weightOk) {
      targets.push({
        connection_id: connectionId,
        owner: owner.value,
        queue: queue.value,
        weight: typeof weight === 'number' ? weight : null,
      });
    }
  });
  return details.length > 0 ? { ok: false, details } : { ok: true, value: targets };
}

/** PUT /api/routing/settings: the whole settings; a field left out takes its default. */
export function parseRoutingSettings(body: unknown): RoutingParse<RoutingSettings> {
  if (!isObject(body)) return { ok: false, details: [{ field: '(body)', message: 'body must be a JSON object' }] };
  const details = unknownKeys(body, SETTINGS_KEYS, '');
  const value: RoutingSettings = { ...DEFAULT_ROUTING_SETTINGS };
  if ('default_targets' in body) {
    const parsed = parseTargets(body['default_targets'], 'default_targets', false, 0);
    if (!parsed.ok) details.push(...parsed.details);
    else {
      const seen = new Set<string>();
      parsed.value.forEach((target, index) => {
        if (seen.has(target.connection_id))
          details.push({
            field: `default_targets[${index}].connection_id`,
            message: `connection ${target.connection_id} is listed twice; every default target receives the lead`,
          });
        seen.add(target.connection_id);
      });
      value.default_targets = parsed.value.map(({ connection_id, owner, queue }) => ({ connection_id, owner, queue }));
    }
  }
  if ('when_unmatched' in body) {
    if (!(ROUTING_UNMATCHED as readonly unknown[]).includes(body['when_unmatched']))
      details.push({
        field: 'when_unmatched',
        message: `when_unmatched must be one of ${ROUTING_UNMATCHED.join(', ')}`,
      });
    else value.when_unmatched = body['when_unmatched'] as RoutingUnmatched;
  }
  return details.length > 0 ? { ok: false, details } : { ok: true, value };
}

/** Every CRM connection a rule or the settings name, with where, for the API's existence check. */
export function routingConnectionRefs(
  targets: ReadonlyArray<RoutingDestination>,
  path: string,
): Array<{ field: string; connection_id: string }> {
  return targets.map((target, index) => ({
    field: `${path}[${index}].connection_id`,
    connection_id: target.connection_id,
  }));
}
