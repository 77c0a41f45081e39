/**
 * The crm-sync stage's consumers: group `crm-sync` on leads.routed and crm.sync.requests, and one
 * group per retry delay topic (`crm-sync.retry.<step>`). Each delay topic has its own group
 * because a consumer holds a partition's batch until its head record is due (DESIGN.md section
 * 4): in one group with leads.routed, a retry waiting 24 h would hold the routed leads behind it.
 * All groups run the same stage; starting and stopping this runner starts and stops them all.
 */
import { CrmConnectionRepository, LeadRepository } from '@leadstream/dal';
import type { CrmRetryStep } from '@leadstream/domain';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import { ConsumerRunner, CRM_SYNC_REQUESTS_TOPIC, crmRetryTopic, crmTopics, CredentialsCipher, CrmClient, type Logger, type Metrics } from '@leadstream/runtime';
import { type BatchStage, BatchStageHandler, type BatchStageHandlerOptions } from '../batch/batch-stage';
import type { BatchWriter } from '../batch/batch-write';
import { crmSyncStage, LEADS_ROUTED_TOPIC } from './crm-sync.stage';

export interface CrmSyncRunnerOptions {
  log: EventLog;
  store: DocumentStore;
  writer: BatchWriter;
  metrics: Metrics;
  logger: Logger;
  isTransient: (error: unknown) => boolean;
  isStopping?: () => boolean;
  credentialsKey: Buffer;
  schedule: CrmRetryStep[];
  timeoutMs: number;
  allowInsecureTargets: boolean;
  now?: () => Date;
}

/** The retry groups' stage: the same decisions, committed under the group's own name. */
function underGroup(stage: BatchStage, name: string, topic: string): BatchStage {
  return { name, topic, process: (records) => stage.process(records) };
}

export class CrmSyncRunner extends ConsumerRunner {
  private readonly retries: ConsumerRunner[];

  constructor(private readonly crm: CrmSyncRunnerOptions) {
    const options = crm;
    const stage = crmSyncStage({
      leads: new LeadRepository(options.store),
      connections: new CrmConnectionRepository(options.store),
      cipher: new CredentialsCipher(options.credentialsKey),
      client: new CrmClient({ timeoutMs: options.timeoutMs, allowInsecureTargets: options.allowInsecureTargets }),
      schedule: options.schedule,
      ...(options.now ? { now: options.now } : {}),
    });
    const handlerOptions: BatchStageHandlerOptions = {
      writer: options.writer,
      logger: options.logger,
      metrics: options.metrics,
      isTransient: options.isTransient,
      ...(options.isStopping ? { isStopping: options.isStopping } : {}),
    };
    super({ log: options.log, groupId: stage.name, topics: [LEADS_ROUTED_TOPIC, CRM_SYNC_REQUESTS_TOPIC], metrics: options.metrics, logger: options.logger, eachBatch: new BatchStageHandler(stage, handlerOptions).handle });
    // One consumer group per delay topic; a delay that repeats in the schedule shares its topic.
    const distinctSteps = [...new Map(options.schedule.map((step) => [step.name, step])).values()];
    this.retries = distinctSteps.map((step) => {
      const topic = crmRetryTopic(step.name);
      const group = underGroup(stage, `${stage.name}.retry.${step.name}`, topic);
      return new ConsumerRunner({ log: options.log, groupId: group.name, topics: [topic], metrics: options.metrics, logger: options.logger, eachBatch: new BatchStageHandler(group, handlerOptions).handle });
    });
  }

  override get done(): Promise<void> {
    return Promise.all([super.done, ...this.retries.map((runner) => runner.done)]).then(() => undefined);
  }

  override async start(): Promise<void> {
    const partitions = await this.crm.log.partitionCount(LEADS_ROUTED_TOPIC);
    // The delay topics of the configured schedule (CRM_RETRY_SCHEDULE), which the default topics may not have.
    await this.crm.log.ensureTopics([...crmTopics(this.crm.schedule, partitions), { topic: CRM_SYNC_REQUESTS_TOPIC, partitions }]);
    await super.start();
    for (const runner of this.retries) await runner.start();
  }

  override async stop(): Promise<void> {
    await Promise.all([super.stop(), ...this.retries.map((runner) => runner.stop())]);
  }

  override async waitUntilIdle(pollMs?: number): Promise<void> {
    await Promise.all([super.waitUntilIdle(pollMs), ...this.retries.map((runner) => runner.waitUntilIdle(pollMs))]);
  }
}
