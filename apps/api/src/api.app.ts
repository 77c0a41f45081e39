import { randomBytes } from 'node:crypto';
import {
  accessLog,
  errorHandler,
  limitJsonDepth,
  methodRouting,
  opsRoutes,
  refuseNulText,
  requestId,
  requireJsonBody,
  type ReadinessCheck,
} from '@leadstream/http';
import {
  CustomFieldRepository,
  DedupRepository,
  ExportRepository,
  FunnelLinkRepository,
  SubmissionReceiptRepository,
  VendorRefusalRepository,
  VendorReportRepository,
  type Dal,
  type LeadRepository,
} from '@leadstream/dal';
import { WebhookDeliveryRepository, WebhookRepository } from '@leadstream/dal';
import type { Analytics, DocumentStore, EventLog, ExportFileStore } from '@leadstream/ports';
import { CoalescingProducer, CredentialsCipher, type ConfigCache, type Metrics } from '@leadstream/runtime';
import Koa from 'koa';
import { koaBody } from 'koa-body';
import type { Logger } from 'pino';
import { CachedConfig } from './config/cached-config';
import { webhooksRouter } from './webhooks/webhooks.routes';
import type { DecisionWaiter } from './ingestion/decision-waiter';
import { ingestionRouter } from './ingestion/ingestion.routes';
import { createAccountsContext, mountAccounts, type AccountsConfig } from './accounts';
import { dedupRouter } from './dedup/dedup.routes';
import { mountLeads } from './leads/leads.app';
import type { LeadChangeCommitter } from './leads/use-cases/lead-writer';
import { mountRules, type RulesMountDependencies } from './rules/rules.app';
import { mountRouting } from './routing/routing.app';
import { mountCaps } from './caps/caps.routes';
import { exportsRouter } from './exports/exports.routes';
import { mountCrm, type CrmApiOptions } from './crm/crm.app';
import { mountOAuth, OAUTH_FORM_PATHS } from './oauth/oauth.app';
import { vendorPortalRouter } from './vendor-portal/vendor-portal.routes';
import { docsRouters } from './docs/docs.routes';
import { funnelRouter } from './funnel/funnel.routes';
import { analyticsRouter } from './analytics/analytics.routes';
import { responseConformance } from './docs/response-conformance';
import { consoleRoutes, type ConsoleRoutesOptions } from './console';
import { mountConsent } from './consent';
import { SUPPRESSION_STREAM_PATHS, mountSuppression } from './suppression';
import { mountReviewQueue } from './review-queue';
import { mountReprocess } from './reprocess';

export interface ApiDependencies {
  log: EventLog;
  store: DocumentStore;
  analytics: Analytics;
  logger: Logger;
  metrics: Metrics;
  readiness: ReadinessCheck[];
  isStopping: () => boolean;
  /** Largest accepted request body (1 MB by default; see docs/decisions.md "HTTP"). */
  bodyLimit?: string;
  /** Webhooks (docs/webhooks.md): http and non-public targets allowed (WEBHOOK_ALLOW_INSECURE_TARGETS), the test endpoint's time limit (30 s). */
  webhooks?: { allowInsecureTargets: boolean; timeoutMs: number };
  dal: Dal;
  /**
   * The process's configuration cache, started (subscribed to config.changed) by whoever builds
   * the app: keys, vendors and settings are served from it, and every configuration write of the
   * routes calls its `changed`.
   */
  configCache: ConfigCache;
  leads: LeadRepository;
  /**
   * The engines' unit of work for the API's lead changes (update, delete): on the embedded
   * engines of `leadstream start` the pipeline thread writes each change with its events in one
   * transaction. Without it a change goes through the lead's outbox (lead-writer.ts).
   */
  leadChanges?: LeadChangeCommitter;
  waiter: DecisionWaiter;
  decisionTimeoutMs: number;
  /** Behind a reverse proxy, trust X-Forwarded-For for the client address (IP restrictions). */
  trustProxy?: boolean;
  /** The user API's accounts layer: session signing secret, mailer, links, limits. */
  accounts: AccountsConfig;
  /**
   * Tests: check every answer against the OpenAPI document (schemas/api); an answer that
   * contradicts it is replaced by a 500 naming the contradiction, so the test that caused it fails.
   */
  checkResponses?: boolean;
  /** Lead exports (`exportLeads`): where finished files live; without it the export routes are not mounted. */
  exports?: { files: ExportFileStore; clock?: () => Date; exportLimit?: number };
  /** CRM connections (docs/crm.md): the credentials key (which also encrypts webhook secrets) and outbound settings of connection tests. */
  crm?: CrmApiOptions;
  /** The web console at /app (apps/console/dist by default). */
  console?: ConsoleRoutesOptions;
  /** POST /api/enrichment/test's threads and time limit (2 s by default; tests shorten it). */
  enrichmentTest?: RulesMountDependencies['enrichmentTest'];
}

/**
 * The Koa application behind {base_url}, {vendor_base_url} and the sandbox. Routes are thin:
 * authenticate, check the body, produce a command or read the store, answer.
 */
export function createApiApp(deps: ApiDependencies): Koa {
  const app = new Koa();
  app.proxy = deps.trustProxy ?? false;
  app.silent = true;
  app.use(requestId());
  app.use(accessLog(deps.logger, deps.metrics));
  // Outside the error handler, so error answers are checked too.
  if (deps.checkResponses) app.use(responseConformance());
  app.use(errorHandler(deps.logger));
  // Non-JSON bodies are 415 before they are read; forms only where OAuth takes them (docs/decisions.md).
  app.use(requireJsonBody({ formPaths: OAUTH_FORM_PATHS, streamPaths: SUPPRESSION_STREAM_PATHS }));
  app.use(
    koaBody({
      json: true,
      urlencoded: true,
      text: false,
      multipart: false,
      jsonLimit: deps.bodyLimit ?? '1mb',
      formLimit: '64kb',
      jsonStrict: true,
      onError: (error) => {
        throw error;
      },
    }),
  );
  app.use(limitJsonDepth());
  app.use(refuseNulText());
  // OPTIONS and methods a path does not take are answered from the mounted routes (Allow).
  app.use(methodRouting());
  const ops = opsRoutes(deps.readiness, deps.metrics, deps.isStopping);
  app.use(ops.routes());
  app.use(ops.allowedMethods());
  const customFields = new CustomFieldRepository(deps.store);
  const config = new CachedConfig(deps.configCache, {
    apiKeys: deps.dal.apiKeys,
    vendors: deps.dal.vendors,
    organizations: deps.dal.organizations,
    customFields,
  });
  // Lead commands of concurrent requests share one produce per event-loop tick.
  const submissions = new CoalescingProducer(deps.log);
  const ingestion = ingestionRouter({
    dal: deps.dal,
    config,
    leads: deps.leads,
    receipts: new SubmissionReceiptRepository(deps.store),
    refusals: new VendorRefusalRepository(deps.store),
    submissions,
    waiter: deps.waiter,
    decisionTimeoutMs: deps.decisionTimeoutMs,
    logger: deps.logger,
  });
  app.use(ingestion.routes());
  app.use(ingestion.allowedMethods());
  const vendorPortal = vendorPortalRouter({
    dal: deps.dal,
    config,
    reports: new VendorReportRepository(deps.store),
    logger: deps.logger,
  });
  app.use(vendorPortal.routes());
  app.use(vendorPortal.allowedMethods());
  const accounts = createAccountsContext(deps.store, deps.dal, deps.log, deps.logger, deps.accounts, deps.configCache);
  mountAccounts(app, accounts);
  mountOAuth(app, deps.store, accounts);
  const dedup = dedupRouter({
    guard: accounts.guard,
    dedup: new DedupRepository(deps.store),
    leads: deps.leads,
    vendors: deps.dal.vendors,
    configCache: deps.configCache,
  });
  app.use(dedup.routes());
  app.use(dedup.allowedMethods());
  const webhooks = webhooksRouter({
    guard: accounts.guard,
    webhooks: new WebhookRepository(deps.store),
    deliveries: new WebhookDeliveryRepository(deps.store),
    log: deps.log,
    configCache: deps.configCache,
    // Secrets are encrypted with the key of CRM credentials (CRM_CREDENTIALS_KEY, or the one kept in
    // DATA_DIR), which the deliver stage has too. Without it (tests) a random key of this process.
    cipher: new CredentialsCipher(deps.crm?.credentialsKey ?? randomBytes(32)),
    allowInsecureTargets: deps.webhooks?.allowInsecureTargets ?? false,
    timeoutMs: deps.webhooks?.timeoutMs ?? 30_000,
  });
  app.use(webhooks.routes());
  app.use(webhooks.allowedMethods());
  mountLeads(app, {
    guard: accounts.guard,
    store: deps.store,
    dal: deps.dal,
    config,
    customFields,
    log: deps.log,
    ...(deps.leadChanges ? { leadChanges: deps.leadChanges } : {}),
    submissions,
    waiter: deps.waiter,
    decisionTimeoutMs: deps.decisionTimeoutMs,
  });
  mountRules(app, {
    guard: accounts.guard,
    store: deps.store,
    log: deps.log,
    customFields: { list: (organizationId) => config.customFields(organizationId) },
    validationSettings: async (tenant) => (await config.organization(tenant))?.settings.validation,
    configCache: deps.configCache,
    allowInsecureTargets: deps.webhooks?.allowInsecureTargets ?? false,
    enrichmentTest: deps.enrichmentTest,
    logger: deps.logger,
  });
  mountRouting(app, {
    guard: accounts.guard,
    store: deps.store,
    customFields: { list: (organizationId) => config.customFields(organizationId) },
    configCache: deps.configCache,
  });
  mountCaps(app, {
    guard: accounts.guard,
    store: deps.store,
    dal: deps.dal,
    config,
    customFields: { list: (organizationId) => config.customFields(organizationId) },
    configCache: deps.configCache,
    logger: deps.logger,
  });
  const funnelLinks = new FunnelLinkRepository(deps.store);
  const funnel = funnelRouter({
    guard: accounts.guard,
    dal: deps.dal,
    config,
    links: funnelLinks,
    analytics: deps.analytics,
    logger: deps.logger,
  });
  app.use(funnel.routes());
  app.use(funnel.allowedMethods());
  const analytics = analyticsRouter({
    guard: accounts.guard,
    vendors: deps.dal.vendors,
    links: funnelLinks,
    analytics: deps.analytics,
  });
  app.use(analytics.routes());
  app.use(analytics.allowedMethods());
  const docs = docsRouters(accounts.guard);
  app.use(docs.api.routes());
  app.use(docs.api.allowedMethods());
  app.use(docs.pages.routes());
  app.use(docs.pages.allowedMethods());
  mountCrm(app, {
    guard: accounts.guard,
    store: deps.store,
    log: deps.log,
    leads: deps.leads,
    configCache: deps.configCache,
    options: deps.crm,
  });
  mountSuppression(app, {
    guard: accounts.guard,
    store: deps.store,
    configCache: deps.configCache,
    logger: deps.logger,
  });
  mountReviewQueue(app, { guard: accounts.guard, store: deps.store, log: deps.log });
  mountReprocess(app, { guard: accounts.guard, store: deps.store, log: deps.log });
  mountConsent(app, {
    guard: accounts.guard,
    store: deps.store,
    organizations: { get: (tenant) => config.organization(tenant) },
    log: deps.log,
    ...(deps.exports ? { exportFiles: deps.exports.files } : {}),
    logger: deps.logger,
  });
  // The web console at /app, on the same origin as the API (apps/api/src/console).
  app.use(consoleRoutes(deps.console));
  if (deps.exports) {
    const exportsApi = exportsRouter({
      guard: accounts.guard,
      exports: new ExportRepository(deps.store),
      log: deps.log,
      limiter: deps.dal.rateLimiter,
      vendors: deps.dal.vendors,
      ...deps.exports,
    });
    app.use(exportsApi.routes());
    app.use(exportsApi.allowedMethods());
  }
  return app;
}
