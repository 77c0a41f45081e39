/**
 * Submitting leads to the pipeline and waiting for its decisions (docs/pipeline.md): shared by
 * vendor ingestion (`ingestLead`) and lead creation in the user API (POST /api/leads,
 * `createLead`), so a lead entered by a user goes through exactly the rules a vendor's lead does.
 */
import type { SubmissionReceiptRepository } from '@leadstream/dal';
import { normalizeEmail, withoutBidiControls, type TenantContext } from '@leadstream/domain';
import { activeTraceHeaders, type ConfigCache, newId, TOPICS } from '@leadstream/runtime';
import type { BodyProblem, LeadCommandMessage, LeadDecisionMessage } from '@leadstream/schemas';
import type { Produce } from '@leadstream/runtime';
import type { DecisionWaiter } from './decision-waiter';

export const SUBMITTED_TOPIC = TOPICS.submitted;

export interface LeadSubmitDependencies {
  receipts: Pick<SubmissionReceiptRepository, 'record'>;
  /** The log, or a CoalescingProducer in front of it (one produce per tick for concurrent submissions). */
  log: Produce;
  /** Stamps each command with the organization's configuration version this process knows. */
  configCache: Pick<ConfigCache, 'version'>;
  waiter: DecisionWaiter;
  decisionTimeoutMs: number;
  clock: () => Date;
}

/** One item to submit: the body as the pipeline will read it, and the problems the edge found in it. */
export interface SubmissionItem {
  submission: unknown;
  problems: BodyProblem[];
}

/** The answer to one submission, before it is shaped for an endpoint. */
export type SubmitOutcome =
  | { kind: 'invalid'; details: BodyProblem[]; email: string | undefined }
  | { kind: 'decided'; decision: LeadDecisionMessage }
  | { kind: 'pending'; leadId: string; email: string; submittedAt: string };

export const newLeadId = (): string => newId('lead');

/**
 * Produces the valid items in one call, then waits for all their decisions together. Items with
 * problems (or no email) are answered `invalid` without entering the pipeline. Each item still
 * undecided at the deadline gets a receipt, so its status can be followed.
 */
export async function submitLeads(
  deps: LeadSubmitDependencies,
  tenant: TenantContext,
  vendorId: string,
  items: readonly SubmissionItem[],
): Promise<SubmitOutcome[]> {
  const submittedAt = deps.clock().toISOString();
  // Stages reload the organization's configuration when they know an older version than this.
  const configVersion = await deps.configCache.version(tenant.organizationId);
  const outcomes: Array<Promise<SubmitOutcome>> = [];
  const records: Array<{ key: string; value: string; headers?: Record<string, string> }> = [];
  // The trace context of the request's span (docs/operations.md, "Tracing"), when tracing is on.
  const trace = activeTraceHeaders();
  const correlationIds: string[] = [];
  for (const { submission, problems } of items) {
    const email =
      typeof (submission as { email?: unknown })?.email === 'string'
        ? (submission as { email: string }).email
        : undefined;
    if (problems.length > 0 || email === undefined) {
      outcomes.push(Promise.resolve({ kind: 'invalid', details: problems, email }));
      continue;
    }
    const command: LeadCommandMessage = {
      schema_version: 1,
      message_id: newId('msg'),
      correlation_id: newId('corr'),
      lead_id: newLeadId(),
      organization_id: tenant.organizationId,
      environment: tenant.environment,
      vendor_id: vendorId,
      submitted_at: submittedAt,
      // Names lose their bidirectional-text controls here, at the edge (docs/console.md, "User text").
      submission: withoutBidiControls(submission as Record<string, unknown>),
      config_version: configVersion,
    };
    correlationIds.push(command.correlation_id);
    const leadId = command.lead_id;
    outcomes.push(
      deps.waiter
        .expect(command.correlation_id, deps.decisionTimeoutMs)
        .then((decision): SubmitOutcome =>
          decision ? { kind: 'decided', decision } : { kind: 'pending', leadId, email, submittedAt },
        ),
    );
    // Keyed by tenant and normalized email: every decision about one person is serialized.
    records.push({
      key: `${tenant.environment}:${tenant.organizationId}:${normalizeEmail(email)}`,
      value: JSON.stringify(command),
      ...(trace ? { headers: trace } : {}),
    });
  }
  if (records.length > 0) {
    try {
      await deps.log.produce(SUBMITTED_TOPIC, records);
    } catch (error) {
      for (const id of correlationIds) deps.waiter.forget(id);
      throw error;
    }
  }
  const settled = await Promise.all(outcomes);
  for (const outcome of settled) {
    if (outcome.kind === 'pending')
      await deps.receipts.record(tenant, outcome.leadId, vendorId, outcome.submittedAt, deps.clock());
  }
  return settled;
}
