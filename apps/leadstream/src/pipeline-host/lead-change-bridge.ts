/**
 * The API's lead changes across threads. On the embedded engines of `leadstream start` the
 * pipeline thread owns the database connection that writes leads and the log; the HTTP thread
 * sends each user change of a lead (update, delete) there, and the thread's batch writer commits
 * it with its events in one transaction (AtomicBatchWriter.commitLeadChange), so the lead keeps
 * no outbox and the HTTP thread takes no write lock for it.
 */
import type { LeadChangeCommitter } from '@leadstream/api';
import type { LeadRecord } from '@leadstream/domain';
import { callsOver, type Channel, serveCalls } from './channel-calls';

type LeadChange = Parameters<LeadChangeCommitter['commitLeadChange']>[0];

const KINDS = { call: 'unit.leadChange', reply: 'unit.leadChange.reply' };

/** Serves `committer` to the other end of `channel`; returns a function that stops serving. */
export function serveLeadChanges(committer: LeadChangeCommitter, channel: Channel): () => void {
  return serveCalls<LeadChange>(channel, KINDS, (change) => committer.commitLeadChange(change));
}

/**
 * A LeadChangeCommitter whose changes are committed at the other end of `channel`
 * (serveLeadChanges). `gone` settles when the other end is gone for good: calls then fail at once.
 */
export function connectLeadChanges(channel: Channel, gone?: Promise<unknown>): LeadChangeCommitter {
  const caller = callsOver<LeadChange>(channel, KINDS, gone);
  return {
    commitLeadChange: async (change) => (await caller.call<LeadRecord | null | undefined>(change)) ?? null,
  };
}
