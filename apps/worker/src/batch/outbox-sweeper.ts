/**
 * Produces outputs left in outboxes by a crash between a store write and its produce: in leads
 * (a stage batch through OutboxBatchWriter whose message is never delivered again, or a user's
 * change through the API) and in vendors (vendor.enabled/disabled). A crashed stage batch was
 * committed by nobody, so usually its redelivery flushes it first; this catches the rest.
 * Outputs may go out twice; consumers are idempotent.
 *
 * Every process of the pipeline runs the timer, and one of them sweeps each interval: the one that
 * takes the turn (MaintenanceTurns), so the deployment reads the outboxes about once an interval
 * however many processes it runs.
 */
import { LEADS_COLLECTION, LeadRepository, MaintenanceTurns, VendorRepository } from '@leadstream/dal';
import type { LeadRecord } from '@leadstream/domain';
import type { Collection, DocumentStore, EventLog } from '@leadstream/ports';
import type { Logger } from '@leadstream/runtime';
import { clearOutboxes, produceByTopic } from './outbox-batch-writer';

export interface OutboxSweeperOptions {
  store: DocumentStore;
  log: EventLog;
  logger: Logger;
  /** An outbox older than this is swept (a live batch clears its own within milliseconds). Default 30 s. */
  minAgeMs?: number;
  intervalMs?: number;
  now?: () => Date;
}

const DEFAULT_INTERVAL_MS = 10_000;
/** The task's name in MaintenanceTurns. */
const OUTBOX_SWEEP_TURN = 'outbox-sweep';

export class OutboxSweeper {
  private readonly leads: Collection<LeadRecord>;
  private readonly leadRepository: LeadRepository;
  private readonly vendors: VendorRepository;
  private readonly turns: MaintenanceTurns;
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<number> | undefined;

  constructor(private readonly options: OutboxSweeperOptions) {
    this.leads = options.store.collection<LeadRecord>(LEADS_COLLECTION);
    this.leadRepository = new LeadRepository(options.store);
    this.vendors = new VendorRepository(options.store);
    this.turns = new MaintenanceTurns(options.store);
  }

  start(): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.sweepOnTurn()
        .catch((error: unknown) => {
          this.options.logger.warn({ err: error }, 'outbox sweep failed; trying again later');
          return 0;
        })
        .finally(() => (this.running = undefined));
    }, this.intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    await this.running;
  }

  /** A pass when this process has the deployment's turn for the interval (0 when another has it). */
  async sweepOnTurn(): Promise<number> {
    const now = this.now();
    // Due a little before the next tick, so the process that swept can take the next turn too.
    if (!(await this.turns.take(OUTBOX_SWEEP_TURN, now, this.intervalMs * 0.9))) return 0;
    return this.sweep();
  }

  private now(): Date {
    return (this.options.now ?? (() => new Date()))();
  }

  private get intervalMs(): number {
    return this.options.intervalMs ?? DEFAULT_INTERVAL_MS;
  }

  /** One pass: produces and clears every outbox older than minAgeMs. Returns how many leads and vendors it flushed. */
  async sweep(): Promise<number> {
    const now = this.now();
    const cutoff = new Date(now.getTime() - (this.options.minAgeMs ?? 30_000)).toISOString();
    return (await this.sweepVendors(cutoff)) + (await this.sweepLeads(cutoff));
  }

  private async sweepVendors(cutoff: string): Promise<number> {
    let flushed = 0;
    for (;;) {
      const stale = await this.vendors.staleOutboxes(cutoff, 500);
      if (stale.length === 0) return flushed;
      await produceByTopic(
        this.options.log,
        stale.flatMap((vendor) => vendor.outbox),
      );
      for (const vendor of stale)
        await this.vendors.clearOutbox(
          { organizationId: vendor.organizationId, environment: 'live' },
          vendor.id,
          vendor.outboxAt,
        );
      flushed += stale.length;
      this.options.logger.info({ vendors: stale.length }, 'flushed vendor outboxes left behind');
      if (stale.length < 500) return flushed;
    }
  }

  private async sweepLeads(cutoff: string): Promise<number> {
    let flushed = 0;
    for (;;) {
      // Maintenance across tenants: the read is tenant-blind, every write names the lead's tenant.
      const stale = await this.leadRepository.staleOutboxes(cutoff, 500);
      if (stale.length === 0) return flushed;
      await produceByTopic(
        this.options.log,
        stale.flatMap((lead) => lead.outbox),
      );
      await clearOutboxes(this.leads, stale);
      flushed += stale.length;
      this.options.logger.info({ leads: stale.length }, 'flushed outboxes left behind');
      if (stale.length < 500) return flushed;
    }
  }
}
