/**
 * The API's lead changes across threads. On the embedded engines of `leadstream start` the
 * pipeline thread owns the database connection that writes leads and the log; the HTTP thread
 * sends each user change of a lead (update, delete) there, and the thread's batch writer commits
 * it with its events in one transaction (AtomicBatchWriter.commitLeadChange), so the lead keeps
 * no outbox and the HTTP thread takes no write lock for it.
 */
import type { LeadChangeCommitter } from '@leadstream/api';
import type { LeadRecord } from '@leadstream/domain';
import { type Channel, fromWire, toWire, type WireError } from './log-bridge';

type LeadChange = Parameters<LeadChangeCommitter['commitLeadChange']>[0];

type Message =
  | { kind: 'unit.leadChange'; id: number; change: LeadChange }
  | { kind: 'unit.leadChange.reply'; id: number; lead?: LeadRecord | null; error?: WireError };

function isMessage(value: unknown): value is Message {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return kind === 'unit.leadChange' || kind === 'unit.leadChange.reply';
}

/** Serves `committer` to the other end of `channel`; returns a function that stops serving. */
export function serveLeadChanges(committer: LeadChangeCommitter, channel: Channel): () => void {
  const listener = (value: unknown): void => {
    if (!isMessage(value) || value.kind !== 'unit.leadChange') return;
    const { id } = value;
    committer.commitLeadChange(value.change).then(
      (lead) => channel.postMessage({ kind: 'unit.leadChange.reply', id, lead } satisfies Message),
      (error: unknown) =>
        channel.postMessage({ kind: 'unit.leadChange.reply', id, error: toWire(error) } satisfies Message),
    );
  };
  channel.on('message', listener);
  return () => channel.off('message', listener);
}

/**
 * A LeadChangeCommitter whose changes are committed at the other end of `channel`
 * (serveLeadChanges). `gone` settles when the other end is gone for good: calls then fail at once.
 */
export function connectLeadChanges(channel: Channel, gone?: Promise<unknown>): LeadChangeCommitter {
  const replies = new Map<number, { resolve: (lead: LeadRecord | null) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let closed = false;
  void gone?.then(() => {
    closed = true;
    for (const reply of replies.values()) reply.reject(new Error('the pipeline thread has exited'));
    replies.clear();
  });
  channel.on('message', (value: unknown) => {
    if (!isMessage(value) || value.kind !== 'unit.leadChange.reply') return;
    const reply = replies.get(value.id);
    replies.delete(value.id);
    if (value.error) reply?.reject(fromWire(value.error));
    else reply?.resolve(value.lead ?? null);
  });
  return {
    commitLeadChange: (change) =>
      new Promise((resolve, reject) => {
        if (closed) {
          reject(new Error('the pipeline thread has exited'));
          return;
        }
        const id = nextId++;
        replies.set(id, { resolve, reject });
        channel.postMessage({ kind: 'unit.leadChange', id, change } satisfies Message);
      }),
  };
}
