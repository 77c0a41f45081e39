import {
  CustomFieldRepository,
  DedupRepository,
  SubmissionReceiptRepository,
  ensureIndexes,
  LeadActivityRepository,
  LeadRepository,
} from '@leadstream/dal';
import { AccountTokenRepository, SessionRepository, UserRepository } from '@leadstream/dal';
import { OAuthClientRepository, OAuthConsentRepository, OAuthGrantRepository } from '@leadstream/dal';
import { ExportRepository, FunnelLinkRepository } from '@leadstream/dal';
import {
  CalculatedFieldRepository,
  EnrichmentRuleRepository,
  LookupTableRepository,
  RuleMatchRepository,
  ValidationRuleRepository,
} from '@leadstream/dal';
import { RoutingRuleRepository } from '@leadstream/dal';
import { ReprocessJobRepository } from '@leadstream/dal';
import type { DocumentStore } from '@leadstream/ports';
import { CrmConnectionRepository, CrmSyncRepository } from '@leadstream/dal';
import { ReviewQueueRepository } from '@leadstream/api';

/** Every index of every repository; idempotent, run at each start of a process that uses the store. */
export async function ensureAllIndexes(store: DocumentStore): Promise<void> {
  await ensureIndexes(store);
  await LeadRepository.ensureIndexes(store);
  await LeadActivityRepository.ensureIndexes(store);
  await DedupRepository.ensureIndexes(store);
  await CustomFieldRepository.ensureIndexes(store);
  await SubmissionReceiptRepository.ensureIndexes(store);
  await UserRepository.ensureIndexes(store);
  await SessionRepository.ensureIndexes(store);
  await AccountTokenRepository.ensureIndexes(store);
  await OAuthClientRepository.ensureIndexes(store);
  await OAuthGrantRepository.ensureIndexes(store);
  await OAuthConsentRepository.ensureIndexes(store);
  await ExportRepository.ensureIndexes(store);
  await ReprocessJobRepository.ensureIndexes(store);
  await EnrichmentRuleRepository.ensureIndexes(store);
  await RuleMatchRepository.ensureIndexes(store);
  await LookupTableRepository.ensureIndexes(store);
  await CalculatedFieldRepository.ensureIndexes(store);
  await ValidationRuleRepository.ensureIndexes(store);
  await FunnelLinkRepository.ensureIndexes(store);
  await RoutingRuleRepository.ensureIndexes(store);
  await CrmConnectionRepository.ensureIndexes(store);
  await CrmSyncRepository.ensureIndexes(store);
  await ReviewQueueRepository.ensureIndexes(store);
}
