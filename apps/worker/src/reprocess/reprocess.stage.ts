/**
 * Reprocess stage (consumer group `reprocess` on reprocess.requests, docs/reprocessing.md): applies
 * the organization's current enrichment and routing rules to leads already stored, with the same
 * domain functions the enrich and route stages use (`enrichLead`, `applyEnrichment`, `routeLead`).
 *
 * A job streams the leads of its filter (the lead export's filters) `batchSize` at a time and
 * decides each batch in memory. A dry run only counts: leads that would change, per field, and a
 * sample of differences. A real run commits each batch through the pipeline's BatchWriter (the
 * unit of work of the intake: compare-and-set lead writes with their outputs, one SQLite
 * transaction on the embedded engines, the outbox on Kafka + MongoDB): only leads with a
 * difference are written, each with `lead.updated` (its changes), an activity entry
 * `lead.reprocessed`, and, when the routing target changed and the job includes `crm-sync`, a
 * leads.routed message for the crm-sync stage. A batch whose leads were written meanwhile is read
 * and decided again. Memory is bounded by the batch size and the sample (100 differences).
 *
 * The job document holds the progress; a cancel is read between batches. A job redelivered after
 * a crash runs again from the start: leads already reprocessed have no difference left.
 */
import { randomUUID } from 'node:crypto';
import {
  LeadActivityRepository,
  REPROCESS_SAMPLE_SIZE,
  type EnrichmentConfigReader,
  type ReprocessDifference,
  type ReprocessJob,
  type ReprocessJobRepository,
  type RoutingConfig,
  type RoutingConfigReader,
  type RoutingCounterRepository,
} from '@leadstream/dal';
import {
  applyEnrichment,
  enrichLead,
  matchRoutingRule,
  routeLead,
  ruleSubjectOf,
  withDerivedFields,
  type EnrichmentConfig,
  type LeadRecord,
  type LeadRoute,
  type TenantContext,
} from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { REPROCESS_REQUESTS_TOPIC, type Logger, type ReprocessRequestMessage } from '@leadstream/runtime';
import { parseLeadRouted, type LeadRoutedMessage } from '@leadstream/schemas';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import {
  emptyBatchWrite,
  WriteConflictError,
  type BatchWrite,
  type BatchWriter,
  type ConsumerPosition,
  type OutputRecord,
} from '../batch/batch-write';
import { recordActivity } from '../batch/activity-entries';
import { packLeadEvents } from '../batch/pack-events';
import { deadLetter } from '../batch/lead-stage';
import { changesOf } from '../pipeline/enrich.stage';
import { eventOutput, TOPICS } from '../pipeline/outputs';

export const REPROCESS_STAGE_NAME = 'reprocess';

/** Leads that never reach routing in the intake; reprocessing leaves them as they are. */
const NOT_REPROCESSED = new Set(['rejected', 'duplicate']);

const MAX_CONFLICT_RETRIES = 5;

/**
 * The share of the time a job takes by default. A job's writes cost live ingest more than its own
 * time (the events they cause are consumed on the same cores): at 10 % single ingest kept 0.8 x
 * or more of its rate beside a job in the measured runs (docs/performance.md).
 */
export const DEFAULT_REPROCESS_SHARE = 0.1;

export interface ReprocessStageDependencies {
  jobs: Pick<ReprocessJobRepository, 'find' | 'progress' | 'countLeadsInSteps' | 'leadsOf' | 'reread'>;
  enrichment: Pick<EnrichmentConfigReader, 'read'>;
  routing: Pick<RoutingConfigReader, 'read' | 'enabledConnectionIds'>;
  counters: Pick<RoutingCounterRepository, 'reserve'>;
  /** The pipeline's BatchWriter (the intake's unit of work). */
  writer: BatchWriter;
  logger?: Pick<Logger, 'info' | 'warn' | 'error'>;
  now?: () => Date;
  /** Leads per batch (default 50: small batches keep the pauses they cause live ingest short). */
  batchSize?: number;
  /** Leads counted per step before the first batch (default 5,000; the job rests after each step). */
  countStep?: number;
  /** The least pause between batches (default 0: one turn of the event loop). */
  pauseMs?: number;
  /**
   * The share of the time a job may keep the store and the pipeline busy (default 0.1): after a
   * batch that took t ms the job rests t x (1 - share) / share ms, so live ingest keeps the rest.
   */
  share?: number;
  /** Milliseconds for the job's busy time (default Date.now). */
  clock?: () => number;
  /** Rests `ms` between batches (default a timer; 0 is one turn of the event loop). */
  rest?: (ms: number) => Promise<void>;
}

/** How long a job rests after a batch that took `batchMs`: its time share, at least `minPauseMs`. */
export function reprocessPauseMs(batchMs: number, share: number, minPauseMs = 0): number {
  const rest = share >= 1 ? 0 : (Math.max(0, batchMs) * (1 - share)) / share;
  return Math.max(minPauseMs, Math.round(rest));
}

type Changes = Record<string, { old: unknown; new: unknown }>;

/** What reprocessing one lead decided. */
export interface ReprocessDecision {
  next: LeadRecord;
  changes: Changes;
  /** The routing targets differ from the stored ones. */
  targetChanged: boolean;
}

interface JobContext {
  job: ReprocessJob;
  tenant: TenantContext;
  enrichment: EnrichmentConfig | null;
  routing: RoutingConfig | null;
  connections: string[];
}

const routeSummary = (route: Pick<LeadRoute, 'rule_id' | 'reason' | 'targets'> | null | undefined) =>
  route ? { rule_id: route.rule_id, reason: route.reason, targets: route.targets } : null;

/**
 * The lead as the current rules make it, and what differs from the stored one (no difference: null).
 * `position` is the round-robin position to use when the matching rule is round robin and did not
 * route the lead before.
 */
export function reprocessLead(
  lead: LeadRecord,
  context: Omit<JobContext, 'job' | 'tenant'> & { stages: readonly string[] },
  at: Date,
  position?: number,
): ReprocessDecision | null {
  if (NOT_REPROCESSED.has(lead.status)) return null;
  let next: LeadRecord = lead;
  const changes: Changes = {};
  if (context.stages.includes('enrich') && context.enrichment) {
    const outcome = enrichLead(ruleSubjectOf(lead), context.enrichment, at);
    // A rule that would reject the lead now does not reject a lead already accepted (docs/reprocessing.md).
    if (outcome.run.final_outcome !== 'rejected') {
      next = withDerivedFields(applyEnrichment(lead, outcome));
      Object.assign(changes, changesOf(lead, next));
    }
  }
  let targetChanged = false;
  // A lead waiting for review (or rejected there) is not routed until a reviewer approves it (docs/review-queue.md).
  const heldForReview = lead['review_status'] === 'pending' || lead['review_status'] === 'rejected';
  if (context.stages.includes('route') && context.routing && !heldForReview) {
    const subject = ruleSubjectOf(next);
    const rule = matchRoutingRule(subject, context.routing.rules);
    const previous = lead.routing ?? null;
    const kept =
      rule?.distribution === 'round_robin' && previous?.rule_id === rule.id && typeof previous.position === 'number'
        ? previous.position
        : position;
    const decision = routeLead({ id: lead._id, subject }, context.routing.rules, context.routing.settings, {
      connections: context.connections,
      ...(kept !== undefined ? { position: kept } : {}),
    });
    const before = routeSummary(previous);
    const after = routeSummary(decision);
    if (JSON.stringify(before) !== JSON.stringify(after)) {
      changes['routing'] = { old: before, new: after };
      targetChanged = JSON.stringify(before?.targets ?? []) !== JSON.stringify(after?.targets ?? []);
      next = {
        ...next,
        routing: { ...after!, position: decision.position, routed_at: at.toISOString() },
      };
    }
  }
  if (Object.keys(changes).length === 0) return null;
  return { next, changes, targetChanged };
}

class JobCancelled extends Error {}

export function reprocessStage(deps: ReprocessStageDependencies): BatchStage {
  const now = deps.now ?? (() => new Date());
  const batchSize = deps.batchSize ?? 50;
  const countStep = deps.countStep ?? 5_000;
  const share = deps.share ?? DEFAULT_REPROCESS_SHARE;
  const clock = deps.clock ?? Date.now;
  const rest =
    deps.rest ??
    ((ms: number): Promise<void> =>
      new Promise((resolve) => (ms > 0 ? setTimeout(resolve, ms) : setImmediate(resolve))));
  const pause = (batchMs: number): Promise<void> => rest(reprocessPauseMs(batchMs, share, deps.pauseMs ?? 0));

  async function run(message: ReprocessRequestMessage, record: LogRecord): Promise<void> {
    const tenant: TenantContext = { organizationId: message.organization_id, environment: message.environment };
    const job = await deps.jobs.find(tenant, message.job_id);
    if (!job || job.status === 'completed' || job.status === 'cancelled' || job.status === 'failed') return;
    if (job.cancel_requested) {
      await deps.jobs.progress(job, { status: 'cancelled', completed_at: now().toISOString() });
      return;
    }
    const [enrichment, routing] = await Promise.all([
      job.stages.includes('enrich') ? deps.enrichment.read(job.organization_id) : null,
      job.stages.includes('route') ? deps.routing.read(job.organization_id) : null,
    ]);
    const connections =
      routing && routing.settings.when_unmatched === 'all_connections'
        ? await deps.routing.enabledConnectionIds(tenant)
        : [];
    const context: JobContext = { job, tenant, enrichment, routing, connections };
    const progress = {
      done: 0,
      changed: 0,
      failed: 0,
      crm_syncs: 0,
      field_counts: {} as Record<string, number>,
      sample: [] as ReprocessDifference[],
    };
    await deps.jobs.progress(job, { status: 'running', started_at: now().toISOString(), total: null, ...progress });
    // Intermediate commits keep the consumer on the job's record: a crash runs the job again.
    const position: ConsumerPosition = {
      groupId: REPROCESS_STAGE_NAME,
      topic: record.topic,
      partition: record.partition,
      nextOffset: Number(record.offset),
    };
    // Busy from the end of the last rest: counting, reading, deciding and writing all count.
    let busySince = clock();
    const restAfterBusy = async (): Promise<void> => {
      await pause(clock() - busySince);
      busySince = clock();
    };
    let total = 0;
    for await (const counted of deps.jobs.countLeadsInSteps(tenant, job.filter, countStep)) {
      total = counted;
      const current = await deps.jobs.find(tenant, job._id);
      if (current?.cancel_requested) {
        await deps.jobs.progress(job, { status: 'cancelled', completed_at: now().toISOString() });
        deps.logger?.info({ job_id: job._id, done: 0 }, 'reprocessing job cancelled');
        return;
      }
      await restAfterBusy();
    }
    await deps.jobs.progress(job, { total });
    let chunk: LeadRecord[] = [];
    const flush = async (): Promise<void> => {
      const leads = chunk;
      chunk = [];
      await handleChunk(context, leads, progress, position);
      progress.done += leads.length;
      const current = await deps.jobs.find(tenant, job._id);
      await deps.jobs.progress(job, { ...progress });
      if (current?.cancel_requested) throw new JobCancelled();
      await restAfterBusy();
    };
    try {
      for await (const lead of deps.jobs.leadsOf(tenant, job.filter, batchSize)) {
        chunk.push(lead);
        if (chunk.length >= batchSize) await flush();
      }
      if (chunk.length > 0) await flush();
      await deps.jobs.progress(job, {
        status: 'completed',
        total: Math.max(total, progress.done),
        completed_at: now().toISOString(),
      });
      deps.logger?.info({ job_id: job._id, ...progress, sample: undefined }, 'reprocessing job completed');
    } catch (error) {
      if (error instanceof JobCancelled) {
        await deps.jobs.progress(job, { status: 'cancelled', completed_at: now().toISOString() });
        deps.logger?.info({ job_id: job._id, done: progress.done }, 'reprocessing job cancelled');
        return;
      }
      deps.logger?.error({ job_id: job._id, err: error }, 'reprocessing job failed');
      await deps.jobs.progress(job, {
        status: 'failed',
        error: 'Reprocessing failed; start a new job',
        completed_at: now().toISOString(),
      });
    }
  }

  /** Decides one batch of leads; a real run commits it, deciding again the leads written meanwhile. */
  async function handleChunk(
    context: JobContext,
    first: LeadRecord[],
    progress: {
      changed: number;
      failed: number;
      crm_syncs: number;
      field_counts: Record<string, number>;
      sample: ReprocessDifference[];
    },
    position: ConsumerPosition,
  ): Promise<void> {
    const { job } = context;
    let leads = first;
    for (let attempt = 0; ; attempt++) {
      const at = now();
      const positions = job.dry_run ? new Map<string, number>() : await reservePositions(context, leads);
      const decided = leads.flatMap((lead) => {
        const decision = reprocessLead(lead, { ...context, stages: job.stages }, at, positions.get(lead._id));
        return decision ? [{ lead, decision }] : [];
      });
      if (job.dry_run) {
        count(job, progress, decided);
        for (const { lead, decision } of decided) {
          for (const [field, change] of Object.entries(decision.changes)) {
            if (progress.sample.length >= REPROCESS_SAMPLE_SIZE) break;
            progress.sample.push({ lead_id: lead._id, field, old: change.old, new: change.new });
          }
        }
        return;
      }
      const write = writeOf(context, decided, at.toISOString());
      // As a stage batch does: where the commit is one transaction, the events' activity entries go in it.
      packLeadEvents(write);
      if (deps.writer.atomic) recordActivity(write);
      try {
        if (write.leads.length > 0) await deps.writer.commit(write, position);
        count(job, progress, decided);
        return;
      } catch (error) {
        if (!(error instanceof WriteConflictError)) throw error;
        const conflicted = new Set(error.leadIds);
        // The leads written before the conflict are stored (the outbox writer stores what matched).
        const stored = decided.filter(({ lead }) => !conflicted.has(lead._id));
        if (!deps.writer.atomic) count(job, progress, stored);
        if (attempt >= MAX_CONFLICT_RETRIES) {
          progress.failed += conflicted.size;
          deps.logger?.warn({ job_id: job._id, leads: [...conflicted].slice(0, 5) }, 'leads kept changing: skipped');
          return;
        }
        const ids = deps.writer.atomic ? leads.map((lead) => lead._id) : [...conflicted];
        leads = await deps.jobs.reread(context.tenant, ids);
      }
    }
  }

  /** One block of round-robin positions per rule, for the leads a round-robin rule takes anew. */
  async function reservePositions(context: JobContext, leads: LeadRecord[]): Promise<Map<string, number>> {
    const positions = new Map<string, number>();
    if (!context.routing || !context.job.stages.includes('route')) return positions;
    const wanted = new Map<string, string[]>();
    for (const lead of leads) {
      if (NOT_REPROCESSED.has(lead.status)) continue;
      const rule = matchRoutingRule(ruleSubjectOf(lead), context.routing.rules);
      if (rule?.distribution !== 'round_robin' || lead.routing?.rule_id === rule.id) continue;
      wanted.set(rule.id, [...(wanted.get(rule.id) ?? []), lead._id]);
    }
    for (const [ruleId, ids] of wanted) {
      const start = await deps.counters.reserve(context.tenant, ruleId, ids.length);
      ids.forEach((id, index) => positions.set(id, start + index));
    }
    return positions;
  }

  function writeOf(
    context: JobContext,
    decided: Array<{ lead: LeadRecord; decision: ReprocessDecision }>,
    at: string,
  ): BatchWrite {
    const write = emptyBatchWrite();
    const writeId = `wr_${randomUUID().replace(/-/g, '')}`;
    const activity: BatchWrite['documents'][number]['operations'] = [];
    for (const { lead, decision } of decided) {
      const next: LeadRecord = {
        ...decision.next,
        updated_at: at,
        version: lead.version + 1,
        write_id: writeId,
        outbox: [],
        outbox_at: null,
      };
      write.leads.push({ lead: next, previous: lead, outputs: outputsOf(context, next, decision, at) });
      activity.push(
        LeadActivityRepository.recordOperation({
          _id: `act_${context.job._id}_${lead._id}`,
          organization_id: lead.organization_id,
          environment: lead.environment,
          lead_id: lead._id,
          event: 'lead.reprocessed',
          timestamp: at,
          sequence: 0,
          description: 'Lead reprocessed with the current rules',
          metadata: { job_id: context.job._id, stages: context.job.stages, changes: decision.changes },
        }),
      );
    }
    if (activity.length > 0)
      write.documents.push({ collection: LeadActivityRepository.COLLECTION, operations: activity });
    return write;
  }

  function outputsOf(context: JobContext, lead: LeadRecord, decision: ReprocessDecision, at: string): OutputRecord[] {
    const outputs: OutputRecord[] = [
      eventOutput(
        lead,
        'lead.updated',
        {
          lead: {
            id: lead._id,
            email: lead.email ?? null,
            phone: lead.phone ?? null,
            first_name: lead.first_name ?? null,
            last_name: lead.last_name ?? null,
            status: lead.status,
            vendor_id: lead.vendor_id ?? null,
            updated_at: at,
          },
          changes: decision.changes,
        },
        at,
      ),
    ];
    const route = lead.routing;
    if (
      context.job.stages.includes('crm-sync') &&
      decision.targetChanged &&
      lead.environment === 'live' &&
      route &&
      route.targets.length > 0
    ) {
      const targets = route.targets.map((target) => ({
        connection_id: target.connection_id,
        owner: target.owner,
        queue: target.queue,
      }));
      const routed: LeadRoutedMessage = parseLeadRouted({
        schema_version: 1,
        message_id: `${context.job._id}:${lead._id}>route`,
        correlation_id: context.job._id,
        lead_id: lead._id,
        organization_id: lead.organization_id,
        environment: lead.environment,
        vendor_id: lead.vendor_id ?? 'unknown',
        submitted_at: lead.created_at,
        route: { rule_id: route.rule_id, reason: route.reason, targets, routed_at: route.routed_at },
      });
      outputs.push({ topic: TOPICS.routed, key: lead._id, value: JSON.stringify(routed) });
    }
    return outputs;
  }

  /** Adds a batch's differences to the job's counts; CRM syncs count where the job includes crm-sync. */
  function count(
    job: ReprocessJob,
    progress: { changed: number; crm_syncs: number; field_counts: Record<string, number> },
    decided: Array<{ lead: LeadRecord; decision: ReprocessDecision }>,
  ): void {
    for (const { lead, decision } of decided) {
      progress.changed++;
      for (const field of Object.keys(decision.changes))
        progress.field_counts[field] = (progress.field_counts[field] ?? 0) + 1;
      if (
        job.stages.includes('crm-sync') &&
        decision.targetChanged &&
        lead.environment === 'live' &&
        (decision.next.routing?.targets.length ?? 0) > 0
      )
        progress.crm_syncs++;
    }
  }

  return {
    name: REPROCESS_STAGE_NAME,
    topic: REPROCESS_REQUESTS_TOPIC,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      for (const record of records) {
        let message: ReprocessRequestMessage;
        try {
          message = JSON.parse(record.value) as ReprocessRequestMessage;
          if (
            message.schema_version !== 1 ||
            typeof message.job_id !== 'string' ||
            typeof message.organization_id !== 'string' ||
            (message.environment !== 'live' && message.environment !== 'sandbox')
          )
            throw new Error('not a reprocessing request');
        } catch (error) {
          write.records.push(deadLetter(record, error instanceof Error ? error.message : String(error)));
          continue;
        }
        await run(message, record);
      }
      return { write, handled: records.length };
    },
  };
}
