import type { DocumentStore } from '@leadstream/ports';
import { ApiKeyRepository } from './api-key.repository';
import { OrganizationRepository } from './organization.repository';
import { RateLimiter, type RequestLimiter } from './rate-limiter';
import { VendorRepository } from './vendor.repository';

export interface Dal {
  organizations: OrganizationRepository;
  vendors: VendorRepository;
  apiKeys: ApiKeyRepository;
  /** Counters in the store; an api alone on the embedded engines uses a MemoryRateLimiter instead. */
  rateLimiter: RequestLimiter;
}

/** Every repository over one store. Call `ensureIndexes(store)` once at start as well. */
export function createDal(store: DocumentStore): Dal {
  return {
    organizations: new OrganizationRepository(store),
    vendors: new VendorRepository(store),
    apiKeys: new ApiKeyRepository(store),
    rateLimiter: new RateLimiter(store),
  };
}
