/**
 * Validate stage: consumes leads.submitted. Creates the lead (its actor starts here), runs the
 * built-in validation rules (docs/decisions.md "Validation") with the organization's settings, then
 * its custom validation rules (docs/validation-rules.md, `validateWithRules`), and either hands the
 * lead to deduplication (leads.validated, same key) or decides: 400 for invalid input, 422 for a
 * rule. A custom rule that cannot be evaluated neither refuses nor silently passes the lead: it goes
 * on flagged for manual review, `review_flags` naming the rule and its error, and the stage logs it.
 */
import type {
  CustomFieldRepository,
  LeadRepository,
  OrganizationRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import {
  advanceLead,
  blockingKeyFields,
  DEFAULT_VALIDATION_SETTINGS,
  applyConsentRequirements,
  consentRecord,
  DEFAULT_CONSENT_REQUIREMENTS,
  type ConsentRequirements,
  emailDomain,
  leadSearchFields,
  leadStatusOf,
  normalizeEmail,
  startLead,
  validateWithRules,
  type LeadRecord,
  type LeadSubmission,
  type MxAnswer,
  type ValidationRule,
  type ValidationSettings,
  type ValidationVerdict,
} from '@leadstream/domain';
import type { MxResolver } from '@leadstream/ports';
import type { Logger } from '@leadstream/runtime';
import type { LeadCommandMessage } from '@leadstream/schemas';
import type { LeadStage } from '../batch/lead-stage';
import {
  prefetchSuppression,
  suppressionVerdict,
  type SuppressionBatch,
  type SuppressionLookup,
} from './suppression-check';
import type { OutputRecord } from '../batch/batch-write';
import type { ConfigSource } from '../batch/config-source';
import { commandConfigVersions, leadStage, mapBounded, tenantOf } from '../batch/lead-stage';
import { decisionOutput, eventOutput, leadCreatedPayload, nextStageOutput, submissionKey, TOPICS } from './outputs';

const SANDBOX_RETENTION_MS = 24 * 3_600_000;

export interface ValidateStageDependencies {
  leads: Pick<LeadRepository, 'findManyById'>;
  organizations: Pick<OrganizationRepository, 'get'>;
  customFields: Pick<CustomFieldRepository, 'list'>;
  /** The organization's custom validation rules (docs/validation-rules.md), run after the built-in ones. */
  validationRules: Pick<ValidationRuleRepository, 'list'>;
  config: ConfigSource;
  /** Undefined when MX checks are off for the whole process (MX_CHECK=off). */
  mx: MxResolver | undefined;
  /** Suppression lists (docs/suppression-lists.md), checked after validation; tests may leave it out. */
  suppression?: SuppressionLookup;
  /** Where custom rules that cannot be evaluated are reported (stages.ts passes the worker's); tests may leave it out. */
  logger?: Pick<Logger, 'warn'>;
  now?: () => Date;
}

interface ValidateContext {
  settings: Map<string, ValidationSettings>;
  customFields: Map<string, CustomFieldDefinitions>;
  validationRules: Map<string, ValidationRule[]>;
  mx: Map<string, MxAnswer>;
  /** The organization's consent requirements (docs/consent.md), by organization id. */
  consent: Map<string, ConsentRequirements>;
  suppression: SuppressionBatch | undefined;
}

type CustomFieldDefinitions = Awaited<ReturnType<CustomFieldRepository['list']>>;

/** How many MX look-ups of one batch run at once. */
const MX_CONCURRENCY = 16;

export function validateStage(deps: ValidateStageDependencies): LeadStage {
  const now = deps.now ?? (() => new Date());
  return leadStage<ValidateContext>({
    name: 'validate',
    topic: TOPICS.submitted,
    leads: deps.leads,
    async prefetch(messages) {
      const versions = commandConfigVersions(messages);
      const settings = new Map<string, ValidationSettings>();
      const customFields = new Map<string, CustomFieldDefinitions>();
      const validationRules = new Map<string, ValidationRule[]>();
      const consent = new Map<string, ConsentRequirements>();
      await Promise.all(
        [
          ...new Map(
            messages.map((message) => [`${message.organization_id}:${message.environment}`, tenantOf(message)]),
          ).entries(),
        ].map(async ([key, tenant]) => {
          const minVersion = versions.get(tenant.organizationId);
          settings.set(
            key,
            await deps.config.get(
              tenant.organizationId,
              `validation-settings:${tenant.environment}`,
              async () => (await deps.organizations.get(tenant))?.settings.validation ?? DEFAULT_VALIDATION_SETTINGS,
              minVersion,
            ),
          );
          customFields.set(
            tenant.organizationId,
            await deps.config.get(
              tenant.organizationId,
              'custom-fields',
              () => deps.customFields.list(tenant.organizationId),
              minVersion,
            ),
          );
          validationRules.set(
            tenant.organizationId,
            await deps.config.get(
              tenant.organizationId,
              'validation-rules',
              () => deps.validationRules.list(tenant.organizationId),
              minVersion,
            ),
          );
          consent.set(
            tenant.organizationId,
            await deps.config.get(
              tenant.organizationId,
              'consent-requirements',
              async () =>
                (await deps.organizations.get(tenant))?.settings.consent_requirements ?? DEFAULT_CONSENT_REQUIREMENTS,
              minVersion,
            ),
          );
        }),
      );
      // MX look-ups for the distinct domains that need one, in parallel with a bound.
      const domains = new Set<string>();
      for (const message of messages) {
        const tenantSettings = settings.get(`${message.organization_id}:${message.environment}`);
        const email = (message.submission as { email?: unknown } | undefined)?.email;
        const domain =
          deps.mx && tenantSettings?.mx_check && typeof email === 'string' ? emailDomain(email) : undefined;
        if (domain) domains.add(domain);
      }
      const mx = new Map<string, MxAnswer>();
      const resolver = deps.mx;
      if (resolver) {
        const answers = await mapBounded([...domains], MX_CONCURRENCY, (domain) => resolver.lookup(domain));
        [...domains].forEach((domain, index) => mx.set(domain, answers[index]!));
      }
      // One look-up of every email, phone and domain hash of the batch on the organizations' lists.
      const suppression = deps.suppression
        ? await prefetchSuppression(deps.suppression, deps.config, messages, versions)
        : undefined;
      return { settings, customFields, validationRules, mx, consent, suppression };
    },
    decide(message, existing, context, batch) {
      if (existing) throw new Error(`lead ${message.lead_id} exists already and did not come from this submission`);
      const settings =
        context.settings.get(`${message.organization_id}:${message.environment}`) ?? DEFAULT_VALIDATION_SETTINGS;
      const submission = (message.submission ?? {}) as unknown as LeadSubmission;
      const domain = typeof submission.email === 'string' ? emailDomain(submission.email) : undefined;
      const mx = settings.mx_check && domain ? context.mx.get(domain) : undefined;
      const at = now();
      // Time rules (form timing) measure up to when the api received the submission, not to when
      // this stage got to it: a backed-up pipeline must not make every form look slow.
      const { verdict: ruleVerdict, unevaluable } = validateWithRules({
        submission,
        settings,
        customFields: context.customFields.get(message.organization_id) ?? [],
        rules: context.validationRules.get(message.organization_id) ?? [],
        mx,
        now: new Date(message.submitted_at),
      });
      // Then the organization's consent requirements (docs/consent.md).
      const validated = applyConsentRequirements(
        ruleVerdict,
        submission.consent,
        context.consent.get(message.organization_id) ?? DEFAULT_CONSENT_REQUIREMENTS,
        new Date(message.submitted_at),
      );
      // Suppression lists after validation, before dedup (docs/suppression-lists.md).
      const verdict = suppressionVerdict(validated, message, context.suppression, at);
      for (const rule of unevaluable) {
        deps.logger?.warn(
          {
            code: 'rule_unevaluable',
            rule_kind: 'validation',
            rule_id: rule.rule_id,
            rule_name: rule.rule_name,
            organization_id: message.organization_id,
            lead_id: message.lead_id,
            error: rule.error,
            lead_outcome: verdict.outcome,
          },
          'validation rule cannot be evaluated: the lead goes to manual review (unless a rule refused it)',
        );
      }
      const lead = buildLead(message, submission, verdict, at);
      batch.put(
        { ...lead, applied_messages: [message.message_id] },
        outputsFor(message, lead, verdict, at.toISOString()),
      );
      return 'decided';
    },
  });
}

function text(value: unknown): string | null {
  return typeof value === 'string' && value.trim() !== '' ? value.trim() : null;
}

function buildLead(
  message: LeadCommandMessage,
  submission: LeadSubmission,
  verdict: ValidationVerdict,
  at: Date,
): LeadRecord {
  const source = verdict.outcome === 'accepted' ? verdict.lead : submission;
  const actor =
    verdict.outcome === 'accepted'
      ? advanceLead(startLead(message.lead_id), {
          type: 'VALIDATION_PASSED',
          flags: verdict.flags,
          warnings: verdict.warnings,
        })
      : advanceLead(startLead(message.lead_id), {
          type: 'VALIDATION_FAILED',
          reason: verdict.reason,
          ruleId: verdict.outcome === 'rejected' ? verdict.ruleId : 'validation.input',
          message: verdict.outcome === 'rejected' ? verdict.message : 'Validation failed',
        });
  const email = typeof source.email === 'string' ? source.email.trim() : '';
  const keys = verdict.outcome === 'accepted' ? blockingKeyFields(source) : { email: null, phone: null, name: null };
  const created = at.toISOString();
  return {
    _id: message.lead_id,
    organization_id: message.organization_id,
    environment: message.environment,
    vendor_id: message.vendor_id,
    status: leadStatusOf(actor.state),
    email,
    first_name: text(source.first_name),
    last_name: text(source.last_name),
    phone: text(source.phone),
    source: text(source.source),
    // POST /api/leads may name the program apart from program_interest (`createLead`); vendors
    // cannot.
    program: text((message.submission as { program?: unknown } | undefined)?.program) ?? text(source.program_interest),
    program_interest: text(source.program_interest),
    ip_address: text(source.ip_address),
    user_agent: text(source.user_agent),
    landing_page: text(source.landing_page),
    referrer: text(source.referrer),
    utm_source: text(source.utm_source),
    utm_medium: text(source.utm_medium),
    utm_campaign: text(source.utm_campaign),
    utm_term: text(source.utm_term),
    utm_content: text(source.utm_content),
    custom_fields: source.custom_fields ?? {},
    enrichment_data: {},
    validation_status: verdict.outcome === 'accepted' ? (verdict.flags.length > 0 ? 'flagged' : 'passed') : 'failed',
    // A lead refused here is never enriched nor synced: it says so at once rather than "pending" forever.
    enrichment_status: verdict.outcome === 'accepted' ? 'pending' : 'skipped',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: message.environment === 'sandbox' || verdict.outcome !== 'accepted' ? 'not_applicable' : 'pending',
    crm_id: null,
    crm_synced_at: null,
    flags: verdict.outcome === 'accepted' ? verdict.flags : [],
    // Custom rules that could not be evaluated, as enrichment keeps its flags (docs/validation-rules.md).
    ...(verdict.outcome === 'accepted' && verdict.reviewFlags?.length ? { review_flags: verdict.reviewFlags } : {}),
    // The consent evidence as received, hashed, never changed by updates (docs/consent.md).
    ...(submission.consent ? { consent: consentRecord(submission.consent, message.submitted_at) } : {}),
    // A possible bot keeps when its form opened, so the review queue can say how fast it was (docs/review-queue.md).
    ...(verdict.outcome === 'accepted' &&
    verdict.flags.includes('possible_bot') &&
    typeof source.form_started_at === 'string'
      ? { form_started_at: source.form_started_at }
      : {}),
    warnings: verdict.outcome === 'accepted' ? verdict.warnings : [],
    rejection_reason: verdict.outcome === 'accepted' ? null : verdict.reason,
    rule_id: verdict.outcome === 'rejected' ? verdict.ruleId : null,
    dedup_key: email ? normalizeEmail(email) : '',
    bk_email: keys.email,
    bk_phone: keys.phone,
    bk_name: keys.name,
    // Search copies of GET /api/leads (lowercase email and names, phone digits).
    ...leadSearchFields({
      email,
      first_name: text(source.first_name),
      last_name: text(source.last_name),
      phone: text(source.phone),
    }),
    dedup_status: 'pending',
    submitted_at: message.submitted_at,
    processed_at: verdict.outcome === 'accepted' ? null : created,
    created_at: created,
    updated_at: created,
    deleted_at: null,
    expires_at: message.environment === 'sandbox' ? new Date(at.getTime() + SANDBOX_RETENTION_MS) : null,
    actor,
    version: 1,
    applied_messages: [],
    outbox: [],
  };
}

function outputsFor(
  message: LeadCommandMessage,
  lead: LeadRecord,
  verdict: ValidationVerdict,
  at: string,
): OutputRecord[] {
  const created = eventOutput(lead, 'lead.created', leadCreatedPayload(lead), at);
  if (verdict.outcome === 'accepted') {
    return [
      created,
      eventOutput(
        lead,
        'lead.validated',
        {
          lead_id: lead._id,
          validation_rules: verdict.rulesApplied,
          warnings: verdict.warnings,
          flags: verdict.flags,
          ...(verdict.reviewFlags?.length ? { review_flags: verdict.reviewFlags } : {}),
        },
        at,
      ),
      // Same key as leads.submitted: deduplication stays serialized per person.
      nextStageOutput(TOPICS.validated, submissionKey(message, lead), message, 'validate'),
    ];
  }
  const rejected = eventOutput(
    lead,
    'lead.rejected',
    {
      lead_id: lead._id,
      lead: { email: lead.email, first_name: lead.first_name, rejected_at: at },
      rejection_reason: verdict.reason,
      rule_id: verdict.outcome === 'rejected' ? verdict.ruleId : null,
    },
    at,
  );
  const decision =
    verdict.outcome === 'invalid'
      ? decisionOutput({
          correlation_id: message.correlation_id,
          lead_id: lead._id,
          outcome: 'invalid',
          decided_at: at,
          email: lead.email,
          reason: verdict.reason,
          details: verdict.details,
        })
      : decisionOutput({
          correlation_id: message.correlation_id,
          lead_id: lead._id,
          outcome: 'rejected',
          decided_at: at,
          email: lead.email,
          reason: verdict.reason,
          rule_id: verdict.ruleId,
          message: verdict.message,
        });
  return [created, rejected, decision];
}
