/** Mounts the rules routers of the user API: enrichment rules and their test, lookup tables, calculated fields, validation rules. */
import {
  CalculatedFieldRepository,
  CalculationJobRepository,
  type CustomFieldRepository,
  EnrichmentConfigReader,
  EnrichmentRuleRepository,
  LeadActivityRepository,
  LeadQueryRepository,
  LookupTableRepository,
  OrganizationRepository,
  RuleMatchRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import type { TenantContext, ValidationSettings } from '@leadstream/domain';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import type { ConfigCache, OutboundOptions } from '@leadstream/runtime';
import type Koa from 'koa';
import type { Logger } from 'pino';
import type { SessionGuard } from '../auth';
import { calculatedFieldsRouter } from './calculated-fields.routes';
import { enrichmentRulesRouter } from './enrichment-rules.routes';
import { enrichmentTestUseCase } from './enrichment-test.use-case';
import { EnrichmentTester, type EnrichmentTesterOptions } from './enrichment-tester';
import { lookupTablesRouter } from './lookup-tables.routes';
import { planLimitGate } from './plan-limit-gate';
import { validationRulesRouter } from './validation-rules.routes';

export interface RulesMountDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  log: Pick<EventLog, 'produce'>;
  customFields: Pick<CustomFieldRepository, 'list'>;
  validationSettings: (tenant: TenantContext) => Promise<ValidationSettings | undefined>;
  configCache: Pick<ConfigCache, 'changed'>;
  /** WEBHOOK_ALLOW_INSECURE_TARGETS (development and tests): rule webhooks may target http and non-public addresses. */
  allowInsecureTargets: boolean;
  /** Name resolution for the public-address check of rule webhook URLs (tests pass their own). */
  resolve?: OutboundOptions['resolve'];
  /** The enrichment tester's threads and limits (enrichment-tester.ts); tests shorten the time limit. */
  enrichmentTest?: EnrichmentTesterOptions;
  /** Where a test the tester stops is reported. */
  logger?: Pick<Logger, 'warn'>;
  clock?: () => Date;
}

export function mountRules(app: Koa, deps: RulesMountDependencies): void {
  const clock = deps.clock ? { clock: deps.clock } : {};
  const lookupTables = new LookupTableRepository(deps.store);
  const calculatedFields = new CalculatedFieldRepository(deps.store);
  const planLimits = planLimitGate(new OrganizationRepository(deps.store));
  const test = enrichmentTestUseCase({
    enrichment: new EnrichmentConfigReader(deps.store),
    tester: new EnrichmentTester(deps.enrichmentTest),
    clock: deps.clock ?? (() => new Date()),
    ...(deps.logger ? { logger: deps.logger } : {}),
  });
  const routers = [
    enrichmentRulesRouter({
      guard: deps.guard,
      rules: new EnrichmentRuleRepository(deps.store),
      matches: new RuleMatchRepository(deps.store),
      lookupTables,
      customFields: deps.customFields,
      test,
      planLimits,
      configCache: deps.configCache,
      allowInsecureTargets: deps.allowInsecureTargets,
      ...(deps.resolve ? { resolve: deps.resolve } : {}),
      ...clock,
    }),
    lookupTablesRouter({ guard: deps.guard, lookupTables, configCache: deps.configCache, planLimits, ...clock }),
    calculatedFieldsRouter({
      guard: deps.guard,
      calculatedFields,
      lookupTables,
      jobs: new CalculationJobRepository(deps.store),
      leads: new LeadQueryRepository(deps.store),
      activity: new LeadActivityRepository(deps.store),
      log: deps.log,
      configCache: deps.configCache,
      planLimits,
      ...clock,
    }),
    validationRulesRouter({
      guard: deps.guard,
      validationRules: new ValidationRuleRepository(deps.store),
      customFields: deps.customFields,
      validationSettings: deps.validationSettings,
      configCache: deps.configCache,
      planLimits,
      ...clock,
    }),
  ];
  for (const router of routers) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
