/**
 * A lead's timeline (docs/timeline.md): when the lead entered and left each stage it passed, and
 * what the stage decided. Every stage appends its entry to the lead in the same write as its other
 * results (the intake chain's single write, crm-sync's write); webhook deliveries keep their own
 * times on the delivery documents the deliver stage writes.
 */
import type { LeadRecord } from './lead';
import { withFields } from './with-fields';

/** The stages of a lead's timeline, in the order a lead passes them. */
export const TIMELINE_STAGES = [
  'received',
  'validated',
  'deduplicated',
  'enriched',
  'routed',
  'reviewed',
  'crm_synced',
  'webhook_delivered',
] as const;

export type TimelineStage = (typeof TIMELINE_STAGES)[number];

export interface LeadTimelineEntry {
  stage: TimelineStage;
  /** What the stage decided, in a word or two (`passed`, `duplicate`, `routed`, `synced`, …). */
  outcome: string;
  /** When the lead entered the stage (ISO). */
  started_at: string;
  /** When the stage was done with it (ISO, never before started_at). */
  finished_at: string;
  duration_ms: number;
  /** The stage's own facts about its decision (flags, the rule, the CRM, …). */
  detail: Record<string, unknown>;
}

/** The most entries a lead keeps (a lead synced again and again keeps its newest ones). */
export const MAX_TIMELINE_ENTRIES = 50;

/** The lead's timeline entries as stored (none on a lead stored before timelines existed). */
export function timelineOf(lead: object): LeadTimelineEntry[] {
  const value = (lead as { timeline?: unknown }).timeline;
  return Array.isArray(value) ? (value as LeadTimelineEntry[]) : [];
}

/** An entry from its times: finished_at is never before started_at, duration_ms never negative. */
export function timelineEntry(
  stage: TimelineStage,
  outcome: string,
  startedAt: Date | string,
  finishedAt: Date | string,
  detail: Record<string, unknown> = {},
): LeadTimelineEntry {
  const started = typeof startedAt === 'string' ? Date.parse(startedAt) : startedAt.getTime();
  const finished = Math.max(started, typeof finishedAt === 'string' ? Date.parse(finishedAt) : finishedAt.getTime());
  return {
    stage,
    outcome,
    started_at: new Date(started).toISOString(),
    finished_at: new Date(finished).toISOString(),
    duration_ms: finished - started,
    detail,
  };
}

/**
 * The lead with one more timeline entry: what a stage calls on the state it is about to write
 * (e.g. the review decision: `appendTimelineEntry(lead, timelineEntry('reviewed', 'approved',
 * flaggedAt, now, { reviewer }))`). Pure; the lead is written with the stage's other results.
 */
export function appendTimelineEntry<T extends LeadRecord>(lead: T, entry: LeadTimelineEntry): T {
  return withFields<T, LeadRecord>(lead, { timeline: [...timelineOf(lead), entry].slice(-MAX_TIMELINE_ENTRIES) });
}
