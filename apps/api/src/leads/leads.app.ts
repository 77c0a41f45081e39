/** Mounts the leads and custom-field routers of the user API on the app. */
import {
  type CustomFieldRepository,
  EnrichmentConfigReader,
  LeadActivityRepository,
  LeadQueryRepository,
  SubmissionReceiptRepository,
  WebhookDeliveryRepository,
  type Dal,
} from '@leadstream/dal';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import type Koa from 'koa';
import type { SessionGuard } from '../auth';
import type { CachedConfig } from '../config/cached-config';
import type { Produce } from '@leadstream/runtime';
import type { DecisionWaiter } from '../ingestion/decision-waiter';
import { customFieldsRouter } from './custom-fields.routes';
import { leadsRouter } from './leads.routes';
import type { LeadChangeCommitter } from './use-cases/lead-writer';
import { leadTimelineRouter } from './lead-timeline.routes';

export interface LeadsMountDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  dal: Dal;
  /** Vendors, organization settings and custom fields as the routes read them: from the configuration cache. */
  config: CachedConfig;
  customFields: CustomFieldRepository;
  log: EventLog;
  /** Lead commands: the log through the per-tick CoalescingProducer. */
  /** The engines' unit of work for the API's lead changes, where they have one (lead-writer.ts). */
  leadChanges?: LeadChangeCommitter;
  submissions: Produce;
  waiter: DecisionWaiter;
  decisionTimeoutMs: number;
  clock?: () => Date;
}

export function mountLeads(app: Koa, deps: LeadsMountDependencies): void {
  const { config, customFields } = deps;
  const enrichment = new EnrichmentConfigReader(deps.store);
  const receipts = new SubmissionReceiptRepository(deps.store);
  const leads = leadsRouter({
    guard: deps.guard,
    store: deps.store,
    dal: {
      rateLimiter: deps.dal.rateLimiter,
      vendors: config.vendors,
      organizations: { get: (tenant) => config.organization(tenant) },
    },
    queries: new LeadQueryRepository(deps.store),
    ...(deps.leadChanges ? { leadChanges: deps.leadChanges } : {}),
    activity: new LeadActivityRepository(deps.store),
    customFields: { list: (organizationId) => config.customFields(organizationId) },
    log: deps.log,
    configCache: config.cache,
    calculations: (organizationId) => enrichment.read(organizationId),
    submit: {
      receipts,
      log: deps.submissions,
      configCache: config.cache,
      waiter: deps.waiter,
      decisionTimeoutMs: deps.decisionTimeoutMs,
    },
    receipts,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const fields = customFieldsRouter({
    guard: deps.guard,
    customFields,
    configCache: config.cache,
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const timeline = leadTimelineRouter({
    guard: deps.guard,
    queries: new LeadQueryRepository(deps.store),
    receipts,
    deliveries: new WebhookDeliveryRepository(deps.store),
  });
  for (const router of [leads, timeline, fields]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
