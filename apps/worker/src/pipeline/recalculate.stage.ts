/**
 * Recalculate stage: consumes calculations.requests (a job the API created) and recomputes the
 * calculated fields of every lead of the organization, in the background, with progress in the
 * job document (GET /api/calculated-fields/jobs/:id). A lead whose version moves while it is
 * recomputed is read again, so a pipeline write is never overwritten. A job redelivered after a
 * crash runs again from the start: computing the same values twice changes nothing.
 */
import type { CalculationJobRepository, EnrichmentConfigReader } from '@leadstream/dal';
import { recalculateLead, type LeadRecord } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { CALCULATION_REQUESTS_TOPIC, type CalculationRequestMessage } from '@leadstream/runtime';
import type { BatchStage, StageBatchResult } from '../batch/batch-stage';
import { emptyBatchWrite } from '../batch/batch-write';
import { deadLetter } from '../batch/lead-stage';

export interface RecalculateStageDependencies {
  jobs: Pick<CalculationJobRepository, 'find' | 'progress' | 'countLeads' | 'leadsOf' | 'reread' | 'writeCalculated'>;
  enrichment: Pick<EnrichmentConfigReader, 'read'>;
  now?: () => Date;
  /** Progress is stored every this many leads. */
  progressEvery?: number;
}

const MAX_ATTEMPTS_PER_LEAD = 20;

export function recalculateStage(deps: RecalculateStageDependencies): BatchStage {
  const now = deps.now ?? (() => new Date());
  const every = deps.progressEvery ?? 500;

  /** Recomputes one lead until its write lands on the version it was computed from. */
  async function recalculate(
    first: LeadRecord,
    fieldNames: string[] | null,
    config: Awaited<ReturnType<EnrichmentConfigReader['read']>>,
  ): Promise<boolean> {
    let lead: LeadRecord | null = first;
    for (let attempt = 0; lead && attempt < MAX_ATTEMPTS_PER_LEAD; attempt++) {
      const result = recalculateLead({
        lead,
        fields: config.calculatedFields,
        lookupTables: config.lookupTables,
        ...(fieldNames ? { only: fieldNames } : {}),
        now: now(),
      });
      if (!result) return false;
      if (await deps.jobs.writeCalculated(lead, result.values, now().toISOString())) return true;
      lead = await deps.jobs.reread(lead);
    }
    return false;
  }

  async function run(message: CalculationRequestMessage): Promise<void> {
    const job = await deps.jobs.find(message.organization_id, message.job_id);
    if (!job || job.status === 'completed') return;
    const config = await deps.enrichment.read(job.organization_id);
    const total = await deps.jobs.countLeads(job.organization_id);
    await deps.jobs.progress(job.id, {
      status: 'running',
      started_at: now().toISOString(),
      total,
      processed: 0,
      updated: 0,
    });
    let processed = 0;
    let updated = 0;
    for await (const lead of deps.jobs.leadsOf(job.organization_id)) {
      if (await recalculate(lead, job.fields, config)) updated++;
      processed++;
      if (processed % every === 0) await deps.jobs.progress(job.id, { processed, updated });
    }
    await deps.jobs.progress(job.id, {
      status: 'completed',
      processed,
      updated,
      total: Math.max(total, processed),
      completed_at: now().toISOString(),
    });
  }

  return {
    name: 'recalculate',
    topic: CALCULATION_REQUESTS_TOPIC,
    async process(records: LogRecord[]): Promise<StageBatchResult> {
      const write = emptyBatchWrite();
      for (const record of records) {
        let message: CalculationRequestMessage;
        try {
          message = JSON.parse(record.value) as CalculationRequestMessage;
          if (
            message.schema_version !== 1 ||
            typeof message.job_id !== 'string' ||
            typeof message.organization_id !== 'string'
          )
            throw new Error('not a calculation request');
        } catch (error) {
          write.records.push(deadLetter(record, error instanceof Error ? error.message : String(error)));
          continue;
        }
        await run(message);
      }
      return { write, handled: records.length };
    },
  };
}
