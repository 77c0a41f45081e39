/**
 * The crm-sync stage's consumers: group `crm-sync` on leads.routed and crm.sync.requests, and one
 * group per retry delay topic (`crm-sync.retry.<step>`; RetryingStageRunner says why).
 */
import { CrmConnectionRepository, LeadRepository } from '@leadstream/dal';
import type { CrmRetryStep } from '@leadstream/domain';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import {
  CRM_SYNC_REQUESTS_TOPIC,
  crmRetryTopic,
  CredentialsCipher,
  CrmClient,
  StoredRefreshTokens,
  type IntakePriority,
  type Logger,
  type Metrics,
} from '@leadstream/runtime';
import { RetryingStageRunner } from '../batch/retrying-stage-runner';
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
  /** Intake first: crm-sync is outbound work, which yields to the intake while the thread is saturated. */
  priority?: IntakePriority;
  now?: () => Date;
}

export class CrmSyncRunner extends RetryingStageRunner {
  constructor(crm: CrmSyncRunnerOptions) {
    const connections = new CrmConnectionRepository(crm.store);
    const cipher = new CredentialsCipher(crm.credentialsKey);
    const stage = crmSyncStage({
      leads: new LeadRepository(crm.store),
      connections,
      cipher,
      // Rotated Salesforce refresh tokens go back to the stored connection, for every process.
      client: new CrmClient({
        timeoutMs: crm.timeoutMs,
        allowInsecureTargets: crm.allowInsecureTargets,
        refreshTokens: new StoredRefreshTokens(connections, cipher),
        logger: crm.logger,
      }),
      schedule: crm.schedule,
      ...(crm.now ? { now: crm.now } : {}),
    });
    super({
      log: crm.log,
      store: crm.store,
      stage,
      inputTopics: [LEADS_ROUTED_TOPIC, CRM_SYNC_REQUESTS_TOPIC],
      // The delay topics of the configured schedule (CRM_RETRY_SCHEDULE), which the default topics may not have.
      retryTopics: crm.schedule.map((step) => ({
        topic: crmRetryTopic(step.name),
        name: step.name,
        delayMs: step.delayMs,
      })),
      ensureInputTopics: [CRM_SYNC_REQUESTS_TOPIC],
      handler: {
        writer: crm.writer,
        logger: crm.logger,
        metrics: crm.metrics,
        isTransient: crm.isTransient,
        ...(crm.isStopping ? { isStopping: crm.isStopping } : {}),
        ...(crm.priority ? { priority: { gate: crm.priority, role: 'outbound' as const } } : {}),
      },
      metrics: crm.metrics,
      logger: crm.logger,
    });
  }
}
