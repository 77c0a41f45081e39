/**
 * The export stage (consumer group `export` on exports.requests, docs/pipeline.md): each
 * export is an actor (libs/domain exports/export.machine.ts) persisted in its document.
 *
 * A request moves the actor requested → processing with a compare-and-set write that also takes
 * a lease, and the record is done: generation runs beside the consumer, so a long export never
 * holds a partition (a Kafka member that does not heartbeat for a session timeout, 6 s here, is
 * thrown out of its group). Generation streams the organization's matching leads from the store
 * (`iterate`, never all rows at once) through csv-stringify into the export file store, renewing
 * the lease, then completes the actor with export.completed in its outbox (or fails it with
 * export.failed), produces the event and clears the outbox.
 *
 * Effectively once: a redelivered request finds the export processing under a live lease, or
 * finished, and does nothing new. If the generating process dies, its lease runs out and the
 * sweep of any process running this stage restarts the export; a crash between the final write
 * and the produce is repaired the same way the lead actors do it, from the outbox.
 */
import { Readable } from 'node:stream';
import { pipeline } from 'node:stream/promises';
import type { ExportRepository } from '@leadstream/dal';
import {
  advanceExport,
  EXPORT_LIFETIME_MS,
  exportCan,
  exportDownloadUrl,
  exportRow,
  exportStatusOf,
  type ExportActorEvent,
  type ExportOutboxEntry,
  type ExportRecord,
  type TenantContext,
} from '@leadstream/domain';
import type { EventLog, ExportFileStore, LogRecord } from '@leadstream/ports';
import type { Logger } from '@leadstream/runtime';
import { parseExportRequestMessage, type LeadEventMessage } from '@leadstream/schemas';
import { stringify } from 'csv-stringify';
import { newId } from '../pipeline/ids';
import { TOPICS } from '../pipeline/outputs';

export const EXPORT_REQUESTS_TOPIC = TOPICS.exportRequests;

/** What a failed export tells its owner; the cause goes to the log, not to the API. */
export const EXPORT_FAILED_MESSAGE = 'Export generation failed; request a new export';

/** How long a generating process holds an export without renewing; renewed every third of it. */
export const EXPORT_LEASE_MS = 60_000;

export interface ExportStageDependencies {
  exports: Pick<
    ExportRepository,
    'findById' | 'applyTransition' | 'clearOutbox' | 'iterateLeads' | 'findExpired' | 'findAbandoned' | 'renewLease'
  >;
  files: ExportFileStore;
  log: Pick<EventLog, 'produce'>;
  logger: Logger;
  now?: () => Date;
  /** Leads per store round trip while streaming (the embedded store yields to the event loop at this pace). */
  batchSize?: number;
  leaseMs?: number;
}

const tenantOf = (record: Pick<ExportRecord, 'organization_id' | 'environment'>): TenantContext => ({
  organizationId: record.organization_id,
  environment: record.environment,
});

/** An event on leads.events about an export, keyed by export id (docs/pipeline.md: resource id). */
function exportEvent(
  record: ExportRecord,
  event: 'export.completed' | 'export.failed',
  data: Record<string, unknown>,
  at: string,
): ExportOutboxEntry {
  const message: LeadEventMessage = {
    schema_version: 1,
    id: newId('evt'),
    event,
    timestamp: at,
    organization_id: record.organization_id,
    environment: record.environment,
    data,
  };
  return { topic: TOPICS.events, key: record._id, value: JSON.stringify(message) };
}

class LeaseLost extends Error {
  constructor(exportId: string) {
    super(`export ${exportId}: lease lost (restarted elsewhere or stopping)`);
    this.name = 'LeaseLost';
  }
}

export interface SweepResult {
  expired: number;
  restarted: number;
}

/** The export stage of one process: request handling, background generation, the sweep. */
export class ExportWorker {
  private readonly now: () => Date;
  private readonly leaseMs: number;
  private readonly running = new Map<string, { done: Promise<void>; abort: AbortController }>();
  private stopping = false;

  constructor(private readonly deps: ExportStageDependencies) {
    this.now = deps.now ?? (() => new Date());
    this.leaseMs = deps.leaseMs ?? EXPORT_LEASE_MS;
  }

  /** Handles one exports.requests record: start the export (once) and hand it to a generation. */
  readonly handle = async (logRecord: LogRecord): Promise<void> => {
    const message = parseExportRequestMessage(JSON.parse(logRecord.value));
    const tenant: TenantContext = { organizationId: message.organization_id, environment: message.environment };
    for (let attempt = 1; attempt <= 5; attempt++) {
      const current = await this.deps.exports.findById(tenant, message.export_id);
      if (!current) {
        this.deps.logger.warn({ export_id: message.export_id }, 'export request for an unknown export: skipped');
        return;
      }
      // Outputs of an earlier delivery that crashed before producing them.
      await this.flush(current);
      if (!exportCan(current.actor, { type: 'START' })) return; // completed, failed or expired
      // Being generated (here or by another process): a redelivery must not start a second file.
      if (
        current.status === 'processing' &&
        current.lease_until &&
        current.lease_until.getTime() > this.now().getTime()
      )
        return;
      if (await this.start(current)) return;
      // The version moved (a concurrent delivery or sweep): look again.
    }
    throw new Error(`export ${message.export_id}: gave up after repeated concurrent writes`);
  };

  /** Resolves once no generation is running in this process (tests, benchmarks, shutdown). */
  async idle(): Promise<void> {
    while (this.running.size > 0) await Promise.all([...this.running.values()].map((entry) => entry.done));
  }

  /**
   * Stops generations in flight and gives up their leases, so the sweep of the next process (or
   * of this one after a restart) starts those exports again at once.
   */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const entry of this.running.values()) entry.abort.abort();
    await this.idle();
  }

  /**
   * Removes the files of exports past their 24 h lifetime and marks them expired (reads
   * already answer 410 from `expires_at`; the sweep reclaims space), and restarts exports whose
   * generating process stopped renewing its lease. Several processes may sweep at once: file
   * deletes are idempotent and state writes are compare-and-set.
   */
  async sweep(): Promise<SweepResult> {
    const result: SweepResult = { expired: 0, restarted: 0 };
    for (;;) {
      const due = await this.deps.exports.findExpired(this.now(), 100);
      for (const record of due) {
        await this.deps.files.delete(record._id);
        if (await this.advance(record, { type: 'EXPIRED' }, { file_id: null, download_url: null })) result.expired++;
      }
      if (due.length < 100) break;
    }
    if (this.stopping) return result;
    for (const record of await this.deps.exports.findAbandoned(this.now(), 100)) {
      if (this.running.has(record._id)) continue;
      this.deps.logger.warn(
        { export_id: record._id, attempts: record.actor.context.attempts },
        'restarting an export whose generation stopped',
      );
      if (await this.start(record)) result.restarted++;
    }
    return result;
  }

  /** START with a fresh lease; on success the generation runs in the background. */
  private async start(current: ExportRecord): Promise<boolean> {
    if (this.stopping) throw new Error('the export stage is stopping');
    const started = await this.advance(
      current,
      { type: 'START' },
      { lease_until: new Date(this.now().getTime() + this.leaseMs) },
    );
    if (!started) return false;
    const abort = new AbortController();
    const done = this.generate(started, abort.signal)
      .catch((error: unknown) =>
        this.deps.logger.error(
          { export_id: started._id, err: error },
          'export generation could not be recorded; the sweep retries it',
        ),
      )
      .finally(() => this.running.delete(started._id));
    this.running.set(started._id, { done, abort });
    return true;
  }

  /** Writes the CSV and records the outcome, unless the lease was lost (then the holder finishes it). */
  private async generate(started: ExportRecord, signal: AbortSignal): Promise<void> {
    const lost = new AbortController();
    const lease = setInterval(
      () => {
        const until = new Date(this.now().getTime() + this.leaseMs);
        this.deps.exports.renewLease(tenantOf(started), started._id, started.version, until).then(
          (held) => {
            if (!held) lost.abort();
          },
          (error: unknown) =>
            this.deps.logger.warn({ export_id: started._id, err: error }, 'export lease renewal failed'),
        );
      },
      Math.max(1_000, Math.floor(this.leaseMs / 3)),
    );
    const stop = AbortSignal.any([signal, lost.signal]);

    let event: ExportActorEvent;
    let set: Partial<ExportRecord>;
    let output: (at: string) => ExportOutboxEntry;
    try {
      const rowCount = await this.writeCsv(started, stop);
      const completedAt = this.now();
      const expiresAt = new Date(completedAt.getTime() + EXPORT_LIFETIME_MS);
      const downloadUrl = exportDownloadUrl(started.base_url, started._id);
      event = {
        type: 'COMPLETED',
        rowCount,
        completedAt: completedAt.toISOString(),
        expiresAt: expiresAt.toISOString(),
      };
      set = {
        row_count: rowCount,
        file_id: started._id,
        download_url: downloadUrl,
        completed_at: completedAt.toISOString(),
        expires_at: expiresAt,
        error: null,
        lease_until: null,
      };
      output = (at) =>
        exportEvent(
          started,
          'export.completed',
          {
            export_id: started._id,
            format: started.format,
            row_count: rowCount,
            download_url: downloadUrl,
            expires_at: expiresAt.toISOString(),
          },
          at,
        );
      this.deps.logger.info({ export_id: started._id, rows: rowCount }, 'export completed');
    } catch (error) {
      if (stop.aborted) {
        // Stopping, or another process took the export over: leave the outcome to whoever holds it.
        if (signal.aborted)
          await this.deps.exports
            .renewLease(tenantOf(started), started._id, started.version, new Date(0))
            .catch(() => false);
        this.deps.logger.info({ export_id: started._id }, 'export generation stopped before the end');
        return;
      }
      this.deps.logger.error({ export_id: started._id, err: error }, 'export generation failed');
      await this.deps.files.delete(started._id).catch(() => false);
      event = { type: 'FAILED', error: EXPORT_FAILED_MESSAGE };
      set = { error: EXPORT_FAILED_MESSAGE, file_id: null, lease_until: null };
      output = (at) =>
        exportEvent(started, 'export.failed', { export_id: started._id, error: EXPORT_FAILED_MESSAGE }, at);
    } finally {
      clearInterval(lease);
    }
    const written = await this.advance(started, event, set, [output(this.now().toISOString())]);
    if (!written)
      this.deps.logger.warn(
        { export_id: started._id },
        'export changed while generating: leaving it to the newer attempt',
      );
  }

  /** Streams the export's leads as CSV into the file store; resolves with the number of data rows. */
  private async writeCsv(record: ExportRecord, signal: AbortSignal): Promise<number> {
    let rows = 0;
    const leads = this.deps.exports.iterateLeads(tenantOf(record), record.filters, this.deps.batchSize ?? 500);
    const fields = record.fields;
    async function* csvRecords(): AsyncGenerator<string[]> {
      for await (const lead of leads) {
        if (signal.aborted) throw new LeaseLost(record._id);
        rows++;
        yield exportRow(lead, fields);
      }
    }
    const csv = stringify({ header: true, columns: [...fields] });
    // Backpressure end to end: the store is read only as fast as the file store takes the bytes.
    await Promise.all([pipeline(Readable.from(csvRecords()), csv), this.deps.files.put(record._id, csv)]);
    if (signal.aborted) throw new LeaseLost(record._id);
    return rows;
  }

  /** Advances the actor if nobody wrote the export since `current`; null when the version moved. */
  private async advance(
    current: ExportRecord,
    event: ExportActorEvent,
    set: Partial<ExportRecord> = {},
    outputs: ExportOutboxEntry[] = [],
  ): Promise<ExportRecord | null> {
    const actor = advanceExport(current.actor, event);
    const written = await this.deps.exports.applyTransition(
      tenantOf(current),
      current._id,
      current.version,
      { ...set, actor, status: exportStatusOf(actor.state) },
      outputs,
    );
    if (written) await this.flush(written);
    return written;
  }

  /** Produces what the outbox holds, then empties it. Safe to repeat. */
  private async flush(record: ExportRecord): Promise<void> {
    if (record.outbox.length === 0) return;
    const byTopic = new Map<string, ExportOutboxEntry[]>();
    for (const entry of record.outbox) byTopic.set(entry.topic, [...(byTopic.get(entry.topic) ?? []), entry]);
    for (const [topic, entries] of byTopic) {
      await this.deps.log.produce(
        topic,
        entries.map((entry) => ({ key: entry.key, value: entry.value })),
      );
    }
    await this.deps.exports.clearOutbox(tenantOf(record), record._id, record.version);
  }
}
