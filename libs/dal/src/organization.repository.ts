/**
 * Organizations: the tenants. An organization holds both environments (live and sandbox), so it
 * is found by the organization id of a tenant context, whatever its environment.
 */
import {
  DEFAULT_VALIDATION_SETTINGS,
  type ConsentRequirements,
  randomBase62,
  type ReviewDecision,
  type TenantContext,
  type ValidationSettings,
} from '@leadstream/domain';
import type { Collection, DocValue, DocumentStore } from '@leadstream/ports';
import { COLLECTIONS, plain, toDocument, toRecord, type Stored } from './collections';

/** Funnel rate limits depend on the plan (education 500, enterprise 1000 per minute). */
export type OrganizationPlan = 'education' | 'enterprise';

export interface OrganizationSettings {
  validation: ValidationSettings;
  /** Requirements on a submission's consent evidence (docs/consent.md); absent: none. */
  consent_requirements?: ConsentRequirements;
  /** Days a deleted lead's consent evidence is kept; absent: DEFAULT_CONSENT_RETENTION_DAYS. */
  consent_retention_days?: number;
  /** docs/review-queue.md "Settings": a lead waiting longer is overdue; absent or null: no SLA. */
  review_sla_hours?: number | null;
  /** A lead waiting longer is decided with `auto_decision` by the scheduled job; absent or null: never. */
  auto_decision_after_hours?: number | null;
  auto_decision?: ReviewDecision | null;
}

export interface Organization {
  /** `org_…` */
  id: string;
  name: string;
  plan: OrganizationPlan;
  settings: OrganizationSettings;
  created_at: Date;
  updated_at: Date;
  /** Set by DELETE /organization; a deleted organization is never returned by `get`. */
  deleted_at?: Date | null;
}

export interface CreateOrganizationInput {
  name: string;
  plan?: OrganizationPlan;
  settings?: Partial<OrganizationSettings>;
}

type OrganizationDocument = Stored<Organization>;

export function newOrganizationId(): string {
  return `org_${randomBase62(24)}`;
}

export class OrganizationRepository {
  private readonly collection: Collection<OrganizationDocument>;

  constructor(store: DocumentStore) {
    this.collection = store.collection<OrganizationDocument>(COLLECTIONS.organizations);
  }

  /** Creating an organization is the one write that has no tenant yet: it makes one. */
  async create(input: CreateOrganizationInput, now = new Date()): Promise<Organization> {
    const organization: Organization = {
      id: newOrganizationId(),
      name: input.name,
      plan: input.plan ?? 'education',
      settings: { validation: input.settings?.validation ?? DEFAULT_VALIDATION_SETTINGS },
      created_at: now,
      updated_at: now,
    };
    await this.collection.insertOne(toDocument(organization));
    return organization;
  }

  /** Every organization not deleted, oldest first: for operators (`leadstream org list`), not tenants. */
  async listAll(): Promise<Organization[]> {
    return (await this.collection.find({ deleted_at: null }, { sort: { created_at: 1, _id: 1 } })).map((doc) =>
      toRecord<Organization>(doc),
    );
  }

  async get(tenant: TenantContext): Promise<Organization | null> {
    const doc = await this.collection.findOne({ _id: tenant.organizationId, deleted_at: null });
    return doc ? toRecord<Organization>(doc) : null;
  }

  /** PATCH /organization: the name and/or the settings. Null when there is no such organization. */
  async update(
    tenant: TenantContext,
    patch: { name?: string; settings?: OrganizationSettings },
    now = new Date(),
  ): Promise<Organization | null> {
    const set: Record<string, DocValue> = { updated_at: now };
    if (patch.name !== undefined) set['name'] = patch.name;
    if (patch.settings !== undefined) set['settings'] = plain(patch.settings);
    const doc = await this.collection.findOneAndUpdate({ _id: tenant.organizationId, deleted_at: null }, { $set: set });
    return doc ? toRecord<Organization>(doc) : null;
  }

  /** DELETE /organization: the record stays, marked deleted (docs/decisions.md). */
  async markDeleted(tenant: TenantContext, now = new Date()): Promise<boolean> {
    const result = await this.collection.updateOne(
      { _id: tenant.organizationId, deleted_at: null },
      { $set: { deleted_at: now, updated_at: now } },
    );
    return result.modifiedCount === 1;
  }

  async updateSettings(
    tenant: TenantContext,
    settings: OrganizationSettings,
    now = new Date(),
  ): Promise<Organization | null> {
    const doc = await this.collection.findOneAndUpdate(
      { _id: tenant.organizationId },
      { $set: { settings: plain(settings), updated_at: now } },
    );
    return doc ? toRecord<Organization>(doc) : null;
  }
}
