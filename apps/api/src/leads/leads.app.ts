/** Mounts the leads and custom-field routers of the user API on the app. */
import { CustomFieldRepository, LeadActivityRepository, LeadQueryRepository, SubmissionReceiptRepository, type Dal } from '@leadstream/dal';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import type Koa from 'koa';
import type { SessionGuard } from '../auth';
import type { DecisionWaiter } from '../ingestion/decision-waiter';
import { customFieldsRouter } from './custom-fields.routes';
import { leadsRouter } from './leads.routes';

export interface LeadsMountDependencies {
  guard: SessionGuard;
  store: DocumentStore;
  dal: Dal;
  log: EventLog;
  waiter: DecisionWaiter;
  decisionTimeoutMs: number;
  clock?: () => Date;
}

export function mountLeads(app: Koa, deps: LeadsMountDependencies): void {
  const customFields = new CustomFieldRepository(deps.store);
  const leads = leadsRouter({
    guard: deps.guard,
    store: deps.store,
    dal: deps.dal,
    queries: new LeadQueryRepository(deps.store),
    activity: new LeadActivityRepository(deps.store),
    customFields,
    log: deps.log,
    submit: { receipts: new SubmissionReceiptRepository(deps.store), log: deps.log, waiter: deps.waiter, decisionTimeoutMs: deps.decisionTimeoutMs },
    ...(deps.clock ? { clock: deps.clock } : {}),
  });
  const fields = customFieldsRouter({ guard: deps.guard, customFields, ...(deps.clock ? { clock: deps.clock } : {}) });
  for (const router of [leads, fields]) {
    app.use(router.routes());
    app.use(router.allowedMethods());
  }
}
