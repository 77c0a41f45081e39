/**
 * Routing (docs/routing.md; docs/decisions.md "Routing"), in three collections:
 * - `routing_rules`: one document per rule, an organization configuration like enrichment rules
 *   (conditions as JSON text: a condition value may be any text, and keys stay ours);
 * - `routing_settings`: one document per organization (`_id` = organization id);
 * - `routing_counters`: one round-robin counter per (organization, environment, rule), so sandbox
 *   tests never move the live rotation.
 * RoutingConfigReader reads what the route stage and POST /api/routing/test need at once.
 */
import {
  DEFAULT_ROUTING_SETTINGS,
  type RoutingDestination,
  type RoutingRule,
  type RoutingRuleSettings,
  type RoutingSettings,
  type RoutingUnmatched,
  type TenantContext,
} from '@leadstream/domain';
import type { Collection, DocValue, DocumentStore } from '@leadstream/ports';
import { OrganizationConfigRepository } from './organization-config.repository';

export const ROUTING_RULES_COLLECTION = 'routing_rules';
export const ROUTING_SETTINGS_COLLECTION = 'routing_settings';
export const ROUTING_COUNTERS_COLLECTION = 'routing_counters';
/** The CRM connections of the CRM feature (CrmConnectionRepository), read here for their ids and `enabled` only. */
const CRM_CONNECTIONS_COLLECTION = 'crm_connections';

export class RoutingRuleRepository extends OrganizationConfigRepository<RoutingRuleSettings> {
  constructor(store: DocumentStore) {
    super(store, ROUTING_RULES_COLLECTION, { priority: 1, created_at: 1, _id: 1 }, undefined, ['conditions']);
  }

  static async ensureIndexes(store: DocumentStore): Promise<void> {
    await OrganizationConfigRepository.ensureConfigIndexes(store, ROUTING_RULES_COLLECTION);
  }

  /** Sets the priorities given; returns the ids the organization does not have (nothing is changed then). */
  async reorder(
    organizationId: string,
    order: ReadonlyArray<{ id: string; priority: number }>,
    at: string,
  ): Promise<string[]> {
    const known = new Set((await this.list(organizationId)).map((rule) => rule.id));
    const unknown = order.filter((entry) => !known.has(entry.id)).map((entry) => entry.id);
    if (unknown.length > 0) return unknown;
    await this.records.bulkWrite(
      order.map((entry) => ({
        updateOne: {
          filter: { _id: entry.id, organization_id: organizationId },
          update: { $set: { priority: entry.priority, updated_at: at } },
        },
      })),
    );
    return [];
  }
}

interface RoutingSettingsDocument {
  _id: string;
  organization_id: string;
  default_targets: RoutingDestination[];
  when_unmatched: RoutingUnmatched;
  updated_at: string;
}

export class RoutingSettingsRepository {
  private readonly settings: Collection<RoutingSettingsDocument>;

  constructor(store: DocumentStore) {
    this.settings = store.collection<RoutingSettingsDocument>(ROUTING_SETTINGS_COLLECTION);
  }

  /** The organization's settings; the defaults (nothing stored) until they are first set. */
  async get(organizationId: string): Promise<RoutingSettings & { updated_at: string | null }> {
    const doc = await this.settings.findOne({ _id: organizationId, organization_id: organizationId });
    if (!doc) return { ...DEFAULT_ROUTING_SETTINGS, updated_at: null };
    // FerretDB may hand back a document without an empty list it was given; defaults fill in.
    return {
      default_targets: doc.default_targets ?? [],
      when_unmatched: doc.when_unmatched ?? DEFAULT_ROUTING_SETTINGS.when_unmatched,
      updated_at: doc.updated_at,
    };
  }

  async put(
    organizationId: string,
    settings: RoutingSettings,
    at: string,
  ): Promise<RoutingSettings & { updated_at: string }> {
    await this.settings.updateOne(
      { _id: organizationId, organization_id: organizationId },
      {
        $set: {
          default_targets: settings.default_targets.map((target) => ({ ...target })) as DocValue,
          when_unmatched: settings.when_unmatched,
          updated_at: at,
        },
      },
      { upsert: true },
    );
    return { default_targets: settings.default_targets, when_unmatched: settings.when_unmatched, updated_at: at };
  }
}

interface RoutingCounterDocument {
  _id: string;
  organization_id: string;
  environment: string;
  rule_id: string;
  next: number;
}

/**
 * Round-robin counters. A batch reserves one block of positions per rule in one atomic
 * increment, so concurrent route consumers never hand out one position twice (on MongoDB; FerretDB
 * v1 applies the increment as read-modify-write, so two racing batches may share a position, which
 * only unbalances the rotation by one). A reservation a failed batch never used is a skipped turn.
 */
export class RoutingCounterRepository {
  private readonly counters: Collection<RoutingCounterDocument>;

  constructor(store: DocumentStore) {
    this.counters = store.collection<RoutingCounterDocument>(ROUTING_COUNTERS_COLLECTION);
  }

  private static id(tenant: TenantContext, ruleId: string): string {
    return `${tenant.organizationId}:${tenant.environment}:${ruleId}`;
  }

  /** Reserves `count` consecutive positions of the rule's rotation; returns the first. */
  async reserve(tenant: TenantContext, ruleId: string, count: number): Promise<number> {
    const before = await this.counters.findOneAndUpdate(
      { _id: RoutingCounterRepository.id(tenant, ruleId) },
      {
        $inc: { next: count },
        $setOnInsert: { organization_id: tenant.organizationId, environment: tenant.environment, rule_id: ruleId },
      },
      { upsert: true, returnDocument: 'before' },
    );
    return before?.next ?? 0;
  }

  /** The position the rule's next lead would get (POST /api/routing/test), without taking it. */
  async peek(tenant: TenantContext, ruleId: string): Promise<number> {
    return (await this.counters.findOne({ _id: RoutingCounterRepository.id(tenant, ruleId) }))?.next ?? 0;
  }
}

/** What routing decides with, per organization: its rules in any order and its settings. */
export interface RoutingConfig {
  rules: RoutingRule[];
  settings: RoutingSettings;
}

export class RoutingConfigReader {
  private readonly rules: RoutingRuleRepository;
  private readonly settings: RoutingSettingsRepository;
  private readonly connections: Collection<{
    _id: string;
    organization_id: string;
    environment: string;
    enabled?: boolean;
  }>;

  constructor(store: DocumentStore) {
    this.rules = new RoutingRuleRepository(store);
    this.settings = new RoutingSettingsRepository(store);
    this.connections = store.collection(CRM_CONNECTIONS_COLLECTION);
  }

  async read(organizationId: string): Promise<RoutingConfig> {
    const [rules, settings] = await Promise.all([this.rules.list(organizationId), this.settings.get(organizationId)]);
    return { rules, settings: { default_targets: settings.default_targets, when_unmatched: settings.when_unmatched } };
  }

  /** Ids of the tenant's enabled CRM connections (the all-connections route), oldest first. */
  async enabledConnectionIds(tenant: TenantContext): Promise<string[]> {
    const found = await this.connections.find(
      { organization_id: tenant.organizationId, environment: tenant.environment },
      { sort: { created_at: 1 }, limit: 1000 },
    );
    return found.filter((connection) => connection.enabled !== false).map((connection) => connection._id);
  }

  /** Which of the given ids are not CRM connections of the tenant (a rule naming one is refused). */
  async unknownConnectionIds(tenant: TenantContext, ids: readonly string[]): Promise<string[]> {
    const wanted = [...new Set(ids)];
    if (wanted.length === 0) return [];
    const found = new Set(
      (
        await this.connections.find({
          _id: { $in: wanted },
          organization_id: tenant.organizationId,
          environment: tenant.environment,
        })
      ).map((connection) => connection._id),
    );
    return wanted.filter((id) => !found.has(id));
  }
}
