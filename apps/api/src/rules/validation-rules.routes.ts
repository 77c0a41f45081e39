/**
 * Custom validation rules (docs/validation-rules.md):
 *   GET/POST /api/validation, GET/PATCH/DELETE /api/validation/:id (config-resource.routes.ts)
 *   POST /api/validation/check   lead fields → {valid, warnings, errors}; creates nothing
 * The check runs `validateWithRules`, the validate stage's own code path, with the organization's
 * settings, custom fields and rules. It does no MX look-up (a DNS answer is the stage's
 * business; docs/validation-rules.md).
 */
import type { CustomFieldRepository, ValidationRuleRepository } from '@leadstream/dal';
import {
  DEFAULT_VALIDATION_SETTINGS,
  DomainError,
  parseValidationRuleCreate,
  parseValidationRulePatch,
  validateWithRules,
  type LeadSubmission,
  type TenantContext,
  type ValidationSettings,
} from '@leadstream/domain';
import type { ConfigCache } from '@leadstream/runtime';
import { defineRoute, UserRouter, type SessionGuard } from '../auth';
import { defineConfigResource } from './config-resource.routes';
import type { PlanLimitGate } from './plan-limit-gate';

export interface ValidationRuleRoutesDependencies {
  guard: SessionGuard;
  validationRules: ValidationRuleRepository;
  customFields: Pick<CustomFieldRepository, 'list'>;
  /** The organization's validation settings (docs/decisions.md "Validation"), as ingestion reads them. */
  validationSettings: (tenant: TenantContext) => Promise<ValidationSettings | undefined>;
  configCache: Pick<ConfigCache, 'changed'>;
  /** How many validation rules the organization's plan allows (422 PLAN_LIMIT_REACHED beyond). */
  planLimits: PlanLimitGate;
  clock?: () => Date;
}

export function validationRulesRouter(deps: ValidationRuleRoutesDependencies): UserRouter {
  const clock = deps.clock ?? (() => new Date());
  const router = new UserRouter(deps.guard);

  // Before /api/validation/:id, so "check" is not taken for an id.
  defineRoute(router, { method: 'POST', path: '/api/validation/check', permission: 'rules:read' }, async (ctx) => {
    const body = ctx.request.body;
    if (typeof body !== 'object' || body === null || Array.isArray(body)) {
      throw new DomainError('VALIDATION_ERROR', 'Invalid request', [
        { field: '(body)', message: 'body must be a JSON object of lead fields' },
      ]);
    }
    const tenant = ctx.state.tenant;
    const [rules, customFields, settings] = await Promise.all([
      deps.validationRules.list(tenant.organizationId),
      deps.customFields.list(tenant.organizationId),
      deps.validationSettings(tenant),
    ]);
    const { check } = validateWithRules({
      submission: body as LeadSubmission,
      settings: settings ?? DEFAULT_VALIDATION_SETTINGS,
      customFields,
      rules,
      mx: undefined,
      now: clock(),
    });
    ctx.body = check;
  });

  defineConfigResource(router, {
    path: '/api/validation',
    label: 'Validation rule',
    idPrefix: 'vrule',
    what: 'validation_rules',
    repository: deps.validationRules,
    parseCreate: (body) => parseValidationRuleCreate(body),
    parsePatch: (body, current) => parseValidationRulePatch(body, current),
    planLimit: { gate: deps.planLimits, resource: 'validation_rules' },
    configCache: deps.configCache,
    clock,
  });
  return router;
}
