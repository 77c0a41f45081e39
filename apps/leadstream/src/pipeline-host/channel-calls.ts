/**
 * Calls across a worker_threads channel, answered in any order: `{kind: <call>, id, body}` goes
 * one way, `{kind: <reply>, id, value | error}` comes back. The event log (log-bridge.ts) and the
 * API's lead changes (lead-change-bridge.ts) are served this way between the HTTP thread and the
 * pipeline thread. Errors cross as WireError (their message, name, code and `retriable` flag).
 */

/** What both ends of a worker_threads channel offer (a Worker, a MessagePort, parentPort). */
export interface Channel {
  postMessage(message: unknown): void;
  on(event: 'message', listener: (message: unknown) => void): unknown;
  off(event: 'message', listener: (message: unknown) => void): unknown;
}

export interface WireError {
  message: string;
  name?: string;
  code?: unknown;
  retriable?: unknown;
}

export function toWire(error: unknown): WireError {
  const shape = error as { message?: unknown; name?: unknown; code?: unknown; retriable?: unknown } | null;
  return {
    message: typeof shape?.message === 'string' ? shape.message : String(error),
    name: typeof shape?.name === 'string' ? shape.name : 'Error',
    code: shape?.code,
    retriable: shape?.retriable,
  };
}

export function fromWire(wire: WireError): Error {
  return Object.assign(new Error(wire.message), {
    name: wire.name ?? 'Error',
    code: wire.code,
    retriable: wire.retriable,
  });
}

/** The message kinds of one kind of call: the call, and its reply. */
export interface CallKinds {
  call: string;
  reply: string;
}

export type CallMessage<B> = { kind: string; id: number; body: B };
export type ReplyMessage = { kind: string; id: number; value?: unknown; error?: WireError };

function kindOf(value: unknown): string | undefined {
  const kind = (value as { kind?: unknown } | null)?.kind;
  return typeof kind === 'string' ? kind : undefined;
}

/**
 * Answers the calls of `kinds.call` that arrive on `channel` with `run` (each as soon as it
 * settles, whatever the order). Returns a function that stops listening.
 */
export function serveCalls<B>(channel: Channel, kinds: CallKinds, run: (body: B) => Promise<unknown>): () => void {
  const listener = (value: unknown): void => {
    if (kindOf(value) !== kinds.call) return;
    const { id, body } = value as CallMessage<B>;
    const reply = (answer: Omit<ReplyMessage, 'kind' | 'id'>): void =>
      channel.postMessage({ kind: kinds.reply, id, ...answer } satisfies ReplyMessage);
    run(body).then(
      (result) => reply({ value: result }),
      (error: unknown) => reply({ error: toWire(error) }),
    );
  };
  channel.on('message', listener);
  return () => channel.off('message', listener);
}

export interface Caller<B> {
  /** Sends `body` to the other end; resolves with its answer, rejects with its error. */
  call<T>(body: B): Promise<T>;
  /** Fails every call waiting for an answer, and every later call, with `reason`. */
  close(reason: string): void;
}

/**
 * Makes calls of `kinds.call` that `serveCalls` answers at the other end of `channel`. `gone`
 * settles when the other end is gone for good (its thread exited): calls then fail at once.
 */
export function callsOver<B>(channel: Channel, kinds: CallKinds, gone?: Promise<unknown>): Caller<B> {
  const waiting = new Map<number, { resolve: (value: unknown) => void; reject: (error: Error) => void }>();
  let nextId = 0;
  let closedBecause: string | undefined;

  const close = (reason: string): void => {
    closedBecause ??= reason;
    for (const pending of waiting.values()) pending.reject(new Error(reason));
    waiting.clear();
  };
  void gone?.then(() => close('the pipeline thread has exited'));

  channel.on('message', (value: unknown) => {
    if (kindOf(value) !== kinds.reply) return;
    const reply = value as ReplyMessage;
    const pending = waiting.get(reply.id);
    waiting.delete(reply.id);
    if (reply.error) pending?.reject(fromWire(reply.error));
    else pending?.resolve(reply.value);
  });

  return {
    call: <T>(body: B) =>
      new Promise<T>((resolve, reject) => {
        if (closedBecause !== undefined) {
          reject(new Error(closedBecause));
          return;
        }
        const id = nextId++;
        waiting.set(id, { resolve: resolve as (value: unknown) => void, reject });
        channel.postMessage({ kind: kinds.call, id, body } satisfies CallMessage<B>);
      }),
    close,
  };
}
