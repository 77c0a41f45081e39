/**
 * Route stage: consumes leads.enriched. Decides each lead's route with the organization's routing
 * rules and settings (`routeLead`, the same function POST /api/routing/test answers with), stores
 * it on the lead (`routing`), records lead.routed (the activity log shows it) and hands a live
 * lead with a CRM target to crm-sync on leads.routed (schemas/messages/lead-routed.schema.json).
 * A lead without a target, and every sandbox lead (no CRM sync in the sandbox), is routed and
 * recorded with crm_sync_status not_applicable, and never handed to crm-sync.
 *
 * Idempotent: a redelivered message is skipped by the lead's applied messages (one route, one
 * lead.routed, one leads.routed). Round-robin positions are reserved per rule for the whole batch
 * in prefetch (one atomic increment per rule); a batch decided again after a failure reserves anew,
 * which skips turns and never gives a lead two routes, since only the stored decision is produced.
 * A lead routed again by the same round-robin rule keeps the position stored with its route.
 */
import type { LeadRepository, RoutingConfig, RoutingConfigReader, RoutingCounterRepository } from '@leadstream/dal';
import {
  matchRoutingRule,
  routeLead,
  ruleSubjectOf,
  type LeadRecord,
  type LeadRoute,
  type TenantContext,
  withFields,
} from '@leadstream/domain';
import { parseLeadRouted, type LeadCommandMessage, type LeadRoutedMessage } from '@leadstream/schemas';
import type { LeadStage } from '../batch/lead-stage';
import type { OutputRecord } from '../batch/batch-write';
import type { ConfigSource } from '../batch/config-source';
import { commandConfigVersions, deadLetter, leadStage, nextMessage, tenantOf } from '../batch/lead-stage';
import { eventOutput, TOPICS } from './outputs';
import { heldForReview, reviewStep } from './review-hold';

export interface RouteStageDependencies {
  leads: Pick<LeadRepository, 'findManyById'>;
  routing: Pick<RoutingConfigReader, 'read' | 'enabledConnectionIds'>;
  counters: Pick<RoutingCounterRepository, 'reserve'>;
  config: ConfigSource;
  now?: () => Date;
}

interface RouteContext {
  configs: Map<string, RoutingConfig>;
  /** Enabled CRM connections per tenant, read only for tenants with a lead no rule or default routes. */
  connections: Map<string, string[]>;
  /** Round-robin position per message id. */
  positions: Map<string, number>;
}

function tenantKey(tenant: TenantContext): string {
  return `${tenant.organizationId}\u0000${tenant.environment}`;
}

export function routeStage(deps: RouteStageDependencies): LeadStage {
  const now = deps.now ?? (() => new Date());
  return leadStage<RouteContext>({
    name: 'route',
    topic: TOPICS.enriched,
    leads: deps.leads,
    async prefetch(messages, batch) {
      const configs = await readConfigs(deps, messages);
      const pending = messages.flatMap((message) => {
        const lead = batch.get(tenantOf(message), message.lead_id);
        const config = configs.get(message.organization_id);
        return lead && config && !lead.applied_messages.includes(message.message_id) && !heldForReview(lead, message)
          ? [{ message, lead, config }]
          : [];
      });
      const [positions, connections] = await Promise.all([
        reservePositions(deps, pending),
        readConnections(deps, pending),
      ]);
      return { configs, connections, positions };
    },
    decide(message, lead, context, batch, write, record) {
      if (!lead) {
        write.records.push(deadLetter(record, `lead ${message.lead_id} not found (deleted, expired or never created)`));
        return 'decided';
      }
      // Deleted since enrichment: nothing to route, and no CRM should get it (a redelivery skips it the same way).
      if (lead.deleted_at) return 'decided';
      const at = now().toISOString();
      // The review queue (docs/review-queue.md): a flagged lead is held here, a decision on it applied.
      const review = reviewStep(lead, message, at);
      if (review.kind === 'final') {
        batch.put(review.lead, review.outputs);
        return 'decided';
      }
      const config = context.configs.get(lead.organization_id) ?? {
        rules: [],
        settings: { default_targets: [], when_unmatched: 'none' },
      };
      const position = context.positions.get(message.message_id);
      const decision = routeLead({ id: lead._id, subject: ruleSubjectOf(lead) }, config.rules, config.settings, {
        connections: context.connections.get(tenantKey(tenantOf(message))) ?? [],
        ...(position !== undefined ? { position } : {}),
      });
      const route: LeadRoute = {
        rule_id: decision.rule_id,
        reason: decision.reason,
        targets: decision.targets,
        position: decision.position,
        routed_at: at,
      };
      // Only a live lead with a target goes on to crm-sync; any other will never be synced, which
      // the lead says at once instead of after a hop through crm-sync.
      const toCrm = lead.environment === 'live' && route.targets.length > 0;
      const next = withFields<LeadRecord>(review.kind === 'approve' ? review.lead : lead, {
        routing: route,
        ...(toCrm ? {} : { crm_sync_status: 'not_applicable' as const }),
        updated_at: at,
        applied_messages: [...lead.applied_messages, message.message_id],
      });
      batch.put(next, [...(review.kind === 'approve' ? review.outputs : []), ...outputsOf(next, message, route)]);
      return 'decided';
    },
  });
}

async function readConfigs(
  deps: RouteStageDependencies,
  messages: LeadCommandMessage[],
): Promise<Map<string, RoutingConfig>> {
  const versions = commandConfigVersions(messages);
  const configs = new Map<string, RoutingConfig>();
  await Promise.all(
    [...versions.keys()].map(async (organizationId) => {
      configs.set(
        organizationId,
        await deps.config.get(
          organizationId,
          'routing',
          () => deps.routing.read(organizationId),
          versions.get(organizationId),
        ),
      );
    }),
  );
  return configs;
}

interface Pending {
  message: LeadCommandMessage;
  lead: LeadRecord;
  config: RoutingConfig;
}

/**
 * One block of round-robin positions per (tenant, rule) for the leads of the batch that rule
 * takes, in message order; a lead whose stored route came from the same rule keeps its position.
 */
async function reservePositions(deps: RouteStageDependencies, pending: Pending[]): Promise<Map<string, number>> {
  const positions = new Map<string, number>();
  const wanted = new Map<string, { tenant: TenantContext; ruleId: string; messageIds: string[] }>();
  const seen = new Set<string>();
  for (const { message, lead, config } of pending) {
    // The same lead twice in one batch: the first message routes it, the second is a redelivery.
    if (seen.has(message.message_id)) continue;
    seen.add(message.message_id);
    const rule = matchRoutingRule(ruleSubjectOf(lead), config.rules);
    if (rule?.distribution !== 'round_robin') continue;
    const previous = lead.routing;
    if (previous && previous.rule_id === rule.id && typeof previous.position === 'number') {
      positions.set(message.message_id, previous.position);
      continue;
    }
    const tenant = tenantOf(message);
    const key = `${tenantKey(tenant)}\u0000${rule.id}`;
    const entry = wanted.get(key) ?? { tenant, ruleId: rule.id, messageIds: [] };
    entry.messageIds.push(message.message_id);
    wanted.set(key, entry);
  }
  await Promise.all(
    [...wanted.values()].map(async ({ tenant, ruleId, messageIds }) => {
      const first = await deps.counters.reserve(tenant, ruleId, messageIds.length);
      messageIds.forEach((messageId, index) => positions.set(messageId, first + index));
    }),
  );
  return positions;
}

/**
 * The enabled CRM connections of each tenant that has a lead only the all-connections route can
 * take, cached as configuration (the API tells the cache of every change of a connection).
 */
async function readConnections(deps: RouteStageDependencies, pending: Pending[]): Promise<Map<string, string[]>> {
  const tenants = new Map<string, TenantContext>();
  for (const { message, lead, config } of pending) {
    const unrouted =
      config.settings.default_targets.length === 0 &&
      config.settings.when_unmatched === 'all_connections' &&
      matchRoutingRule(ruleSubjectOf(lead), config.rules) === null;
    if (unrouted) tenants.set(tenantKey(tenantOf(message)), tenantOf(message));
  }
  const versions = commandConfigVersions(pending.map(({ message }) => message));
  const connections = new Map<string, string[]>();
  await Promise.all(
    [...tenants].map(async ([key, tenant]) => {
      connections.set(
        key,
        await deps.config.get(
          tenant.organizationId,
          `crm_connections:${tenant.environment}`,
          () => deps.routing.enabledConnectionIds(tenant),
          versions.get(tenant.organizationId),
        ),
      );
    }),
  );
  return connections;
}

function outputsOf(lead: LeadRecord, message: LeadCommandMessage, route: LeadRoute): OutputRecord[] {
  const targets = route.targets.map((target) => ({
    connection_id: target.connection_id,
    owner: target.owner,
    queue: target.queue,
  }));
  const outputs: OutputRecord[] = [
    eventOutput(
      lead,
      'lead.routed',
      { lead_id: lead._id, rule_id: route.rule_id, reason: route.reason, targets, routed_at: route.routed_at },
      route.routed_at,
    ),
  ];
  if (lead.environment === 'live' && route.targets.length > 0) {
    const { submission: _submission, ...command } = nextMessage(message, 'route');
    // Checked as produced (docs/pipeline.md): crm-sync builds against this schema.
    const routed: LeadRoutedMessage = parseLeadRouted({
      ...command,
      route: { rule_id: route.rule_id, reason: route.reason, targets, routed_at: route.routed_at },
    });
    outputs.push({ topic: TOPICS.routed, key: lead._id, value: JSON.stringify(routed) });
  }
  return outputs;
}
