import { randomBytes } from 'node:crypto';
import { CrmConnectionRepository, CrmSyncRepository, type LeadRepository } from '@leadstream/dal';
import type { DocumentStore, EventLog } from '@leadstream/ports';
import {
  type ConfigCache,
  CredentialsCipher,
  CrmClient,
  StoredRefreshTokens,
  type OutboundOptions,
} from '@leadstream/runtime';
import type Koa from 'koa';
import type { SessionGuard } from '../auth';
import { crmRouter } from './crm.routes';

export interface CrmApiOptions {
  /**
   * The AES-256-GCM key of connection credentials (CRM_CREDENTIALS_KEY, or the one kept in
   * DATA_DIR). Without it (tests) a random key of this process: credentials stored with it cannot
   * be read by any other process.
   */
  credentialsKey?: Buffer;
  /** Connections may name, and their tests call, http and non-public addresses (development and tests only). */
  allowInsecureTargets?: boolean;
  timeoutMs?: number;
  /** Name resolution for the public-address check of connection URLs when saved (tests pass their own). */
  resolve?: OutboundOptions['resolve'];
}

export function mountCrm(
  app: Koa,
  deps: {
    guard: SessionGuard;
    store: DocumentStore;
    log: EventLog;
    leads: Pick<LeadRepository, 'findById'>;
    configCache: Pick<ConfigCache, 'changed'>;
    options: CrmApiOptions | undefined;
  },
): void {
  const options = deps.options ?? {};
  const connections = new CrmConnectionRepository(deps.store);
  const cipher = new CredentialsCipher(options.credentialsKey ?? randomBytes(32));
  const router = crmRouter({
    guard: deps.guard,
    connections,
    syncs: new CrmSyncRepository(deps.store),
    leads: deps.leads,
    log: deps.log,
    configCache: deps.configCache,
    cipher,
    // A connection test refreshes a Salesforce token too: a rotated refresh token is stored, as the crm-sync stage stores it.
    client: new CrmClient({
      timeoutMs: options.timeoutMs ?? 30_000,
      ...(options.allowInsecureTargets ? { allowInsecureTargets: true } : {}),
      refreshTokens: new StoredRefreshTokens(connections, cipher),
    }),
    allowInsecureTargets: options.allowInsecureTargets ?? false,
    ...(options.resolve ? { resolve: options.resolve } : {}),
  });
  app.use(router.routes());
  app.use(router.allowedMethods());
}
