/**
 * The scheduled part of the review queue (docs/review-queue.md "Settings"): every run decides the
 * leads that waited longer than their organization's `auto_decision_after_hours` with its
 * `auto_decision`, recorded as "automatic", and counts the leads past `review_sla_hours` for
 * /metrics (`leadstream_review_overdue_leads`, no tenant label).
 *
 * Each lead is decided once, even across restarts: the command of an automatic decision has one
 * message id per lead (the route stage skips a second one as applied), and a decided lead is no
 * longer `pending`, so the next run does not pick it again.
 */
import type { Environment } from '@leadstream/domain';
import type { EventLog } from '@leadstream/ports';
import type { Metrics } from '@leadstream/runtime';
import { Gauge } from 'prom-client';
import type { Logger } from 'pino';
import type { ReviewQueueRepository } from './review-queue.repository';
import { decideReviews } from './use-cases';

const OVERDUE_METRIC = 'leadstream_review_overdue_leads';
const ENVIRONMENTS: Environment[] = ['live', 'sandbox'];
/** Leads decided per organization and run: a long backlog is worked down over several runs. */
const BATCH = 100;

export interface ReviewAutoDeciderDeps {
  queue: Pick<
    ReviewQueueRepository,
    'organizationsWithSettings' | 'waitingSince' | 'countWaitingSince' | 'findVisible'
  >;
  log: Pick<EventLog, 'produce'>;
  logger: Logger;
  metrics?: Metrics;
  clock?: () => Date;
}

export class ReviewAutoDecider {
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<unknown> | undefined;
  private readonly overdue: Gauge | undefined;

  constructor(private readonly deps: ReviewAutoDeciderDeps) {
    const registry = deps.metrics?.registry;
    if (registry) {
      this.overdue =
        (registry.getSingleMetric(OVERDUE_METRIC) as Gauge | undefined) ??
        new Gauge({
          name: OVERDUE_METRIC,
          help: 'Leads waiting in the review queue longer than their organization’s review_sla_hours',
          registers: [registry],
        });
    }
  }

  /** One run: the automatic decisions due at `now`, and the overdue count. Returns the leads it decided. */
  async runOnce(): Promise<string[]> {
    const now = (this.deps.clock ?? (() => new Date()))();
    const decided: string[] = [];
    let overdue = 0;
    for (const settings of await this.deps.queue.organizationsWithSettings()) {
      for (const environment of ENVIRONMENTS) {
        const tenant = { organizationId: settings.organization_id, environment };
        if (settings.review_sla_hours !== null)
          overdue += await this.deps.queue.countWaitingSince(
            tenant,
            new Date(now.getTime() - settings.review_sla_hours * 3_600_000).toISOString(),
          );
        if (settings.auto_decision_after_hours === null || settings.auto_decision === null) continue;
        const due = await this.deps.queue.waitingSince(
          tenant,
          new Date(now.getTime() - settings.auto_decision_after_hours * 3_600_000).toISOString(),
          BATCH,
        );
        if (due.length === 0) continue;
        const result = await decideReviews(
          { queue: this.deps.queue, log: this.deps.log },
          {
            tenant,
            ids: due.map((lead) => lead._id),
            decision: settings.auto_decision,
            reviewer: 'automatic',
            reason: `no decision within ${settings.auto_decision_after_hours} h`,
            automatic: true,
          },
        );
        for (const outcome of result.results) if (outcome.success) decided.push(outcome.id);
        this.deps.logger.info(
          {
            organization_id: settings.organization_id,
            environment,
            decision: settings.auto_decision,
            leads: result.succeeded,
          },
          'review queue: automatic decisions',
        );
      }
    }
    this.overdue?.set(overdue);
    return decided;
  }

  /** Runs every `intervalMs` until stopped; a failed run is logged and the next one tries again. */
  start(intervalMs = 60_000): void {
    this.timer = setInterval(() => {
      if (this.running) return;
      this.running = this.runOnce()
        .catch((error: unknown) =>
          this.deps.logger.error({ err: error }, 'review queue: the automatic decision run failed'),
        )
        .finally(() => {
          this.running = undefined;
        });
    }, intervalMs);
    this.timer.unref();
  }

  async stop(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
    await this.running;
  }
}
