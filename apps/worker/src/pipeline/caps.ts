/**
 * Volume caps in the intake (docs/caps.md): decided by the enrich stage, where a lead is accepted,
 * so only leads that would otherwise be accepted count (never a lead validation, dedup or an
 * enrichment rule refused, nor a duplicate linked or flagged to another lead). Sandbox leads are
 * never capped (a vendor's tests must not use up a school's allocation).
 *
 * Per batch and cap, one reservation counts the batch's leads the cap applies to, in message order
 * (CapCounterRepository.reserve: a slot document per lead, exact under concurrency, a lead counted
 * by an earlier attempt of the batch keeps its slot). Caps are tried organization caps first, then
 * vendor caps, lowest maximum first (capCheckOrder); a lead one cap refuses is uncounted from the
 * caps before it, and refused with the reason and id of that cap. A cap the batch filled produces
 * `cap.reached` once per period (CapCounterRepository.markReached).
 */
import type { CapCounterKey, CapCounterRepository, CapRepository } from '@leadstream/dal';
import {
  capApplies,
  capCheckOrder,
  capPeriodAt,
  type Cap,
  type CapPeriod,
  type LeadRecord,
  type RejectionReason,
  type RuleSubject,
} from '@leadstream/domain';
import type { LeadCommandMessage } from '@leadstream/schemas';
import type { OutputRecord } from '../batch/batch-write';
import type { ConfigSource } from '../batch/config-source';
import { advance } from '../batch/lead-stage';
import { decisionOutput, eventOutput } from './outputs';

export interface CapsDependencies {
  caps: Pick<CapRepository, 'list'>;
  counters: Pick<CapCounterRepository, 'reserve' | 'release' | 'markReached'>;
  /** The clock periods are counted by (capsClock: CAPS_CLOCK_OFFSET_MS); the stage's own when absent. */
  now?: () => Date;
}

/** A lead the intake would accept: the one the caps decide about. */
export interface CapCandidate {
  message: LeadCommandMessage;
  lead: LeadRecord;
  /** The lead as enrichment leaves it, which cap conditions are evaluated on. */
  subject: RuleSubject;
}

export interface CapReached {
  cap: Cap;
  period: CapPeriod;
  count: number;
}

export interface CapVerdicts {
  /** The cap that refused the lead, by message id. */
  refused: Map<string, Cap>;
  /** The caps each lead filled, by message id (cap.reached goes out with that lead's outputs). */
  reached: Map<string, CapReached[]>;
}

export const NO_CAP_VERDICTS: CapVerdicts = { refused: new Map(), reached: new Map() };

/** The organization's enabled caps, in the order they are tried (from the configuration cache). */
export async function enabledCaps(
  deps: CapsDependencies,
  config: ConfigSource,
  organizationId: string,
  minVersion: number | undefined,
): Promise<Cap[]> {
  const caps = await config.get(
    organizationId,
    'caps',
    async () => (await deps.caps.list(organizationId)).map((cap) => ({ ...cap, organization_id: organizationId })),
    minVersion,
  );
  return capCheckOrder(caps.filter((cap) => cap.enabled));
}

/** Counts the candidates against their organization's caps (`caps`, in order); see the file comment. */
export async function decideCaps(
  deps: CapsDependencies,
  caps: ReadonlyMap<string, Cap[]>,
  candidates: readonly CapCandidate[],
  now: Date,
): Promise<CapVerdicts> {
  const verdicts: CapVerdicts = { refused: new Map(), reached: new Map() };
  const at = now.toISOString();
  const byOrganization = new Map<string, CapCandidate[]>();
  const seen = new Set<string>();
  for (const candidate of candidates) {
    // The same command twice in one batch: the first decides, the second is a redelivery.
    if (seen.has(candidate.message.message_id) || candidate.lead.environment !== 'live') continue;
    seen.add(candidate.message.message_id);
    const list = byOrganization.get(candidate.lead.organization_id) ?? [];
    list.push(candidate);
    byOrganization.set(candidate.lead.organization_id, list);
  }
  await Promise.all(
    [...byOrganization].map(async ([organizationId, members]) => {
      const ordered = caps.get(organizationId) ?? [];
      // Per lead, the caps that counted it so far (uncounted again when a later cap refuses it).
      const countedBy = new Map<string, CapCounterKey[]>();
      const filled: Array<{ key: CapCounterKey; cap: Cap; leads: CapCandidate[]; count: number }> = [];
      for (const cap of ordered) {
        const applying = members.filter(
          (member) =>
            !verdicts.refused.has(member.message.message_id) && capApplies(cap, member.lead.vendor_id, member.subject),
        );
        if (applying.length === 0) continue;
        const key: CapCounterKey = {
          organizationId,
          capId: cap.id,
          period: capPeriodAt(now, cap.duration, cap.duration_units, cap.time_zone),
        };
        const reservation = await deps.counters.reserve(
          key,
          cap.maximum,
          applying.map((member) => member.lead._id),
          at,
        );
        const counted: CapCandidate[] = [];
        for (const member of applying) {
          if (reservation.counted.has(member.lead._id)) {
            counted.push(member);
            countedBy.set(member.lead._id, [...(countedBy.get(member.lead._id) ?? []), key]);
            continue;
          }
          verdicts.refused.set(member.message.message_id, cap);
          for (const earlier of countedBy.get(member.lead._id) ?? [])
            await deps.counters.release(earlier, [member.lead._id]);
          countedBy.delete(member.lead._id);
        }
        filled.push({ key, cap, leads: counted, count: reservation.count });
      }
      for (const { key, cap, leads, count } of filled) {
        const still = leads.filter((member) => !verdicts.refused.has(member.message.message_id));
        const released = leads.length - still.length;
        const last = still[still.length - 1];
        if (!last || count - released < cap.maximum) continue;
        if (!(await deps.counters.markReached(key, last.lead._id, at))) continue;
        const entry = verdicts.reached.get(last.message.message_id) ?? [];
        entry.push({ cap, period: key.period, count: count - released });
        verdicts.reached.set(last.message.message_id, entry);
      }
    }),
  );
  return verdicts;
}

/** The lead a cap refused: stored rejected with the cap's reason and id, lead.rejected, and a 422 decision. */
export function capRejected(
  lead: LeadRecord,
  message: LeadCommandMessage,
  cap: Cap,
  at: string,
): [LeadRecord, OutputRecord[]] {
  const text = `Volume cap ${cap.name} reached: ${cap.maximum} per ${cap.duration > 1 ? `${cap.duration} ` : ''}${cap.duration_units}${cap.duration > 1 ? 's' : ''}`;
  const next = advance(
    lead,
    message,
    { type: 'ENRICHMENT_REJECTED', ruleId: cap.id, message: text },
    {
      enrichment_status: 'completed',
      crm_sync_status: 'not_applicable',
      processed_at: at,
      // The cap's own reason (cap_reached unless the cap names another), as the vendor is told.
      rejection_reason: cap.reason as RejectionReason,
      rule_id: cap.id,
    },
    at,
  );
  return [
    next,
    [
      eventOutput(
        next,
        'lead.rejected',
        {
          lead_id: next._id,
          lead: { email: next.email ?? null, first_name: next.first_name ?? null, rejected_at: at },
          rejection_reason: cap.reason,
          rule_id: cap.id,
          message: text,
        },
        at,
      ),
      decisionOutput({
        correlation_id: message.correlation_id,
        lead_id: next._id,
        outcome: 'rejected',
        decided_at: at,
        email: next.email,
        reason: cap.reason,
        rule_id: cap.id,
        message: text,
      }),
    ],
  ];
}

/** cap.reached for each cap this lead filled, keyed by cap id (docs/caps.md "Events"). */
export function capReachedOutputs(
  lead: Pick<LeadRecord, '_id' | 'organization_id' | 'environment'>,
  reached: readonly CapReached[] | undefined,
  at: string,
): OutputRecord[] {
  return (reached ?? []).map(({ cap, period, count }) => ({
    ...eventOutput(
      { _id: cap.id, organization_id: lead.organization_id, environment: lead.environment },
      'cap.reached',
      {
        cap_id: cap.id,
        name: cap.name,
        scope: cap.scope,
        vendor_id: cap.vendor_id,
        maximum: cap.maximum,
        count,
        period_start: period.start,
        period_end: period.end,
        reason: cap.reason,
        reached_by_lead_id: lead._id,
        reached_at: at,
      },
      at,
    ),
  }));
}
