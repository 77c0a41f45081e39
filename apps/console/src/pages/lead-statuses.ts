/** Lead statuses of spec 3.1, in the order a school works through them. */
export const LEAD_STATUSES = ['new', 'active', 'contacted', 'qualified', 'converted', 'rejected', 'duplicate', 'archived'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];
