/** Every record belongs to one organization and one environment (docs/permissions.md). */
export type Environment = 'live' | 'sandbox';

export interface TenantContext {
  organizationId: string;
  environment: Environment;
}
