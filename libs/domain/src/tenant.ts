/** Every record belongs to one organization and one environment (DESIGN.md section 7). */
export type Environment = 'live' | 'sandbox';

export interface TenantContext {
  organizationId: string;
  environment: Environment;
}
