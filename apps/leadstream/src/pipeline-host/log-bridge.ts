/**
 * The event log across threads. On the embedded engines the log belongs to one thread (it locks
 * DATA_DIR and shares its database connection with the store), and `leadstream start` runs the
 * pipeline in a worker thread that owns it; the API thread gets an EventLog that forwards every
 * call there: produce, topics, ping, and consumers whose batches come back over the channel to
 * the API thread's handler (the real consumer, its group and its offsets live beside the log).
 */
import type {
  Assignment,
  Batch,
  BatchHandler,
  Consumer,
  ConsumerOptions,
  ConsumerState,
  EventLog,
  ProduceRecord,
  RecordMetadata,
  TopicSpec,
} from '@leadstream/ports';
import { CoalescingProducer } from '@leadstream/runtime';
import { callsOver, type Channel, fromWire, serveCalls, toWire, type WireError } from './channel-calls';

type Call =
  | { op: 'produce'; topic: string; records: ProduceRecord[] }
  | { op: 'ensureTopics'; specs: TopicSpec[] }
  | { op: 'partitionCount'; topic: string }
  | { op: 'ping' }
  | { op: 'consumer.start'; consumerId: number; options: ConsumerOptions }
  | { op: 'consumer.stop'; consumerId: number }
  | { op: 'consumer.lag'; consumerId: number };

/** Calls and their replies (channel-calls.ts); the other messages are the consumers' own. */
const CALLS = { call: 'log.call', reply: 'log.reply' };

type Message =
  | { kind: 'log.batch'; id: number; consumerId: number; batch: Batch }
  | { kind: 'log.ack'; id: number; error?: WireError }
  | { kind: 'log.state'; consumerId: number; state: ConsumerState; assignment: Assignment[] }
  | { kind: 'log.done'; consumerId: number; error?: WireError };

function isMessage(value: unknown): value is Message {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { kind?: unknown }).kind === 'string' &&
    (value as { kind: string }).kind.startsWith('log.')
  );
}

/** Serves `log` to the other end of `channel`. Returns a function that stops every consumer it made. */
export function serveEventLog(log: EventLog, channel: Channel): () => Promise<void> {
  const consumers = new Map<number, Consumer>();
  // Produce calls that arrive while this thread is busy with a batch are sent as one (one commit).
  const producer = new CoalescingProducer(log);
  const pendingAcks = new Map<number, { resolve: () => void; reject: (error: Error) => void }>();
  let nextId = 0;
  const post = (message: Message): void => channel.postMessage(message);
  const publishState = (consumerId: number, consumer: Consumer): void =>
    post({ kind: 'log.state', consumerId, state: consumer.state(), assignment: consumer.assignment() });

  const run = async (call: Call): Promise<unknown> => {
    switch (call.op) {
      case 'produce':
        return producer.produce(call.topic, call.records);
      case 'ensureTopics':
        return log.ensureTopics(call.specs);
      case 'partitionCount':
        return log.partitionCount(call.topic);
      case 'ping':
        return log.ping();
      case 'consumer.start': {
        const consumer = log.consumer(call.options);
        consumers.set(call.consumerId, consumer);
        // Each batch goes to the other thread's handler; the consumer commits when it answers.
        const handler: BatchHandler = (batch) =>
          new Promise<void>((resolve, reject) => {
            const id = nextId++;
            pendingAcks.set(id, { resolve, reject });
            post({ kind: 'log.batch', id, consumerId: call.consumerId, batch });
          });
        await consumer.start(handler);
        consumer.done.then(
          () => post({ kind: 'log.done', consumerId: call.consumerId }),
          (error: unknown) => post({ kind: 'log.done', consumerId: call.consumerId, error: toWire(error) }),
        );
        publishState(call.consumerId, consumer);
        return undefined;
      }
      case 'consumer.stop': {
        const consumer = consumers.get(call.consumerId);
        await consumer?.stop();
        consumers.delete(call.consumerId);
        return undefined;
      }
      case 'consumer.lag': {
        const consumer = consumers.get(call.consumerId);
        if (consumer) publishState(call.consumerId, consumer);
        return consumer ? consumer.lag() : [];
      }
    }
  };

  const stopServing = serveCalls(channel, CALLS, run);
  const listener = (value: unknown): void => {
    if (!isMessage(value) || value.kind !== 'log.ack') return;
    const pending = pendingAcks.get(value.id);
    pendingAcks.delete(value.id);
    if (value.error) pending?.reject(fromWire(value.error));
    else pending?.resolve();
  };
  channel.on('message', listener);
  // Rebalances change a member's partitions without a batch: tell the other end now and then.
  const timer = setInterval(() => {
    for (const [consumerId, consumer] of consumers) publishState(consumerId, consumer);
  }, 100);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await Promise.all([...consumers.values()].map((consumer) => consumer.stop()));
    consumers.clear();
    stopServing();
    channel.off('message', listener);
  };
}

/**
 * An EventLog whose calls run on the log served at the other end of `channel` (serveEventLog).
 * `gone` settles when the other end is gone for good (the thread exited): calls then fail at once.
 */
export function connectEventLog(
  channel: Channel,
  engine: EventLog['engine'] = 'embedded',
  gone?: Promise<unknown>,
): EventLog {
  const caller = callsOver<Call>(channel, CALLS, gone);
  const call = <T>(body: Call): Promise<T> => caller.call<T>(body);
  const consumers = new Map<number, RemoteConsumer>();
  let nextConsumerId = 0;

  channel.on('message', (value: unknown) => {
    if (!isMessage(value)) return;
    switch (value.kind) {
      case 'log.batch':
        consumers
          .get(value.consumerId)
          ?.deliver(value.batch)
          .then(
            () => channel.postMessage({ kind: 'log.ack', id: value.id } satisfies Message),
            (error: unknown) =>
              channel.postMessage({ kind: 'log.ack', id: value.id, error: toWire(error) } satisfies Message),
          );
        break;
      case 'log.state':
        consumers.get(value.consumerId)?.update(value.state, value.assignment);
        break;
      case 'log.done':
        consumers.get(value.consumerId)?.finish(value.error ? fromWire(value.error) : undefined);
        consumers.delete(value.consumerId);
        break;
    }
  });

  class RemoteConsumer implements Consumer {
    readonly done: Promise<void>;
    private handler: BatchHandler | undefined;
    private current: ConsumerState = 'idle';
    private owned: Assignment[] = [];
    private settle!: { resolve: () => void; reject: (error: unknown) => void };

    constructor(
      private readonly id: number,
      private readonly options: ConsumerOptions,
    ) {
      this.done = new Promise<void>((resolve, reject) => (this.settle = { resolve, reject }));
      this.done.catch(() => undefined);
    }

    async start(handler: BatchHandler): Promise<void> {
      this.handler = handler;
      consumers.set(this.id, this);
      this.current = 'running';
      await call({ op: 'consumer.start', consumerId: this.id, options: this.options });
    }

    async stop(): Promise<void> {
      if (this.current === 'idle') {
        this.finish(undefined);
        return;
      }
      this.current = 'stopping';
      await call({ op: 'consumer.stop', consumerId: this.id }).catch(() => undefined);
      this.finish(undefined);
    }

    assignment(): Assignment[] {
      return this.owned;
    }

    state(): ConsumerState {
      return this.current;
    }

    lag(): Promise<Array<{ topic: string; partition: number; lag: number }>> {
      return call({ op: 'consumer.lag', consumerId: this.id });
    }

    /** The handler's own failure, so that `done` rejects with it (not a copy from the other thread). */
    private failure: unknown;

    deliver(batch: Batch): Promise<void> {
      if (!this.handler) return Promise.reject(new Error('consumer not started'));
      return this.handler(batch).catch((error: unknown) => {
        this.failure = error;
        throw error;
      });
    }

    update(state: ConsumerState, assignment: Assignment[]): void {
      if (this.current === 'running') this.current = state;
      this.owned = assignment;
    }

    finish(error: Error | undefined): void {
      if (this.current === 'stopped' || this.current === 'crashed') return;
      this.current = error ? 'crashed' : 'stopped';
      consumers.delete(this.id);
      if (error) this.settle.reject(this.failure ?? error);
      else this.settle.resolve();
    }
  }

  return {
    engine,
    ensureTopics: (specs) => call({ op: 'ensureTopics', specs }),
    partitionCount: (topic) => call({ op: 'partitionCount', topic }),
    produce: (topic, records): Promise<RecordMetadata[]> => call({ op: 'produce', topic, records }),
    ping: () => call({ op: 'ping' }),
    consumer: (options) => new RemoteConsumer(nextConsumerId++, options),
    close: async () => {
      await Promise.all([...consumers.values()].map((consumer) => consumer.stop()));
      caller.close('the event log of the pipeline thread is closed');
    },
  };
}
