/**
 * Where a lead goes (the route stage and POST /api/routing/test): the first enabled routing rule
 * whose conditions hold, in ascending priority (ties: creation time, then id), decides; a lead no
 * rule matches goes to the default targets, else (when_unmatched all_connections) to every
 * enabled CRM connection of its organization, else nowhere. Pure: the round-robin position and
 * the connections come in through `state`.
 */
import { evaluateConditions } from '../rules/condition';
import type { RuleSubject } from '../rules/field-path';
import type { RoutingDestination, RoutingRule, RoutingSettings, RoutingTarget } from './routing-rule';

export type RouteReason = 'rule' | 'default' | 'all_connections' | 'none';

export interface RoutableLead {
  /** The lead id: what a weighted rule hashes, so the same lead always gets the same target. */
  id: string;
  /** The lead's fields as rules see them (ruleSubjectOf). */
  subject: Readonly<RuleSubject>;
}

export interface RoutingState {
  /** Enabled CRM connections of the lead's organization and environment, for the all-connections route. */
  connections: readonly string[];
  /**
   * The lead's place in the matched round-robin rule's rotation (the rule's counter value assigned
   * to it, kept with the lead's route so routing it again lands on the same target); 0 when absent.
   */
  position?: number;
}

export interface RouteDecision {
  rule_id: string | null;
  reason: RouteReason;
  targets: RoutingDestination[];
  /** The round-robin position used (stored with the route), null for other distributions. */
  position: number | null;
}

/** The route stored on the lead (`routing`) and recorded by lead.routed: the decision and when. */
export interface LeadRoute {
  rule_id: string | null;
  reason: RouteReason;
  targets: RoutingDestination[];
  /** The round-robin position the lead got; routing it again by the same rule re-uses it. */
  position: number | null;
  routed_at: string;
}

/** Enabled rules in the order they are tried. */
export function routingRuleOrder<T extends Pick<RoutingRule, 'enabled' | 'priority' | 'created_at' | 'id'>>(
  rules: readonly T[],
): T[] {
  return rules
    .filter((rule) => rule.enabled)
    .sort((a, b) => a.priority - b.priority || a.created_at.localeCompare(b.created_at) || a.id.localeCompare(b.id));
}

/** The rule that decides the lead's route: the first enabled one that matches, or null. */
export function matchRoutingRule<T extends RoutingRule>(subject: Readonly<RuleSubject>, rules: readonly T[]): T | null {
  return routingRuleOrder(rules).find((rule) => evaluateConditions(rule.conditions, subject)) ?? null;
}

export function routeLead(
  lead: RoutableLead,
  rules: readonly RoutingRule[],
  settings: RoutingSettings,
  state: RoutingState,
): RouteDecision {
  const rule = matchRoutingRule(lead.subject, rules);
  if (rule) return routeByRule(lead, rule, state.position ?? 0);
  if (settings.default_targets.length > 0)
    return { rule_id: null, reason: 'default', targets: settings.default_targets.map(destination), position: null };
  if (settings.when_unmatched === 'all_connections' && state.connections.length > 0) {
    return {
      rule_id: null,
      reason: 'all_connections',
      targets: [...new Set(state.connections)].sort().map((id) => ({ connection_id: id, owner: null, queue: null })),
      position: null,
    };
  }
  return { rule_id: null, reason: 'none', targets: [], position: null };
}

function routeByRule(lead: RoutableLead, rule: RoutingRule, position: number): RouteDecision {
  const base = { rule_id: rule.id, reason: 'rule' as const };
  switch (rule.distribution) {
    case 'round_robin': {
      const slot = ((position % rule.targets.length) + rule.targets.length) % rule.targets.length;
      return { ...base, targets: [destination(rule.targets[slot]!)], position };
    }
    case 'weighted':
      return { ...base, targets: [destination(weightedTarget(rule.targets, `${rule.id}:${lead.id}`))], position: null };
    case 'single':
      return { ...base, targets: [destination(rule.targets[0]!)], position: null };
    default:
      return { ...base, targets: rule.targets.map(destination), position: null };
  }
}

function destination(target: RoutingDestination | RoutingTarget): RoutingDestination {
  return { connection_id: target.connection_id, owner: target.owner ?? null, queue: target.queue ?? null };
}

/** The target whose share of the weights the key's hash falls in; the same key, the same target. */
export function weightedTarget<T extends Pick<RoutingTarget, 'weight'>>(targets: readonly T[], key: string): T {
  const total = targets.reduce((sum, target) => sum + Math.max(0, target.weight ?? 0), 0);
  if (total <= 0) return targets[0]!;
  let point = stableHash(key) % total;
  for (const target of targets) {
    point -= Math.max(0, target.weight ?? 0);
    if (point < 0) return target;
  }
  return targets[targets.length - 1]!;
}

/** 32-bit FNV-1a over UTF-16 code units, then murmur3's finalizer so nearby ids spread evenly. */
export function stableHash(key: string): number {
  let hash = 0x811c9dc5;
  for (let index = 0; index < key.length; index++) {
    hash ^= key.charCodeAt(index);
    hash = Math.imul(hash, 0x01000193);
  }
  hash ^= hash >>> 16;
  hash = Math.imul(hash, 0x85ebca6b);
  hash ^= hash >>> 13;
  hash = Math.imul(hash, 0xc2b2ae35);
  hash ^= hash >>> 16;
  return hash >>> 0;
}
