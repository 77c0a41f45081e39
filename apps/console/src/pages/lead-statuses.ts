/** Lead statuses (docs/api-conventions.md "Statuses"), in the order a school works through them. */
export const LEAD_STATUSES = [
  'new',
  'active',
  'contacted',
  'qualified',
  'converted',
  'rejected',
  'duplicate',
  'archived',
] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
