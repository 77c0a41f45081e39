import type { Message, Producer, ProducerBatch, RecordMetadata } from 'kafkajs';
import { describe, expect, it } from 'vitest';
import { ProducerSession } from './producer-session';

/**
 * A stand-in for kafkajs's producer that keeps each partition's log in memory and answers as the
 * broker does (one base offset per topic and partition of a request), so the session's own rules
 * can be checked one by one. The Kafka log's spec runs the session against a real broker.
 */
class FakeProducer {
  static logs = new Map<string, string[]>();
  readonly requests: Array<Array<{ topic: string; values: string[] }>> = [];
  failNext: Error[] = [];
  failConnect: Error | undefined;
  /** A request with a record of this value is refused for good, as the broker refuses one too large. */
  static refused: string | undefined;
  connected = false;
  disconnected = false;

  async connect(): Promise<void> {
    if (this.failConnect) throw this.failConnect;
    this.connected = true;
  }

  async disconnect(): Promise<void> {
    this.disconnected = true;
  }

  async sendBatch(batch: ProducerBatch): Promise<RecordMetadata[]> {
    await Promise.resolve();
    this.requests.push(
      batch.topicMessages!.map(({ topic, messages }) => ({ topic, values: messages.map((m) => String(m.value)) })),
    );
    const failure = this.failNext.shift();
    if (failure) throw failure;
    if (batch.topicMessages!.some(({ messages }) => messages.some((m) => String(m.value) === FakeProducer.refused)))
      throw Object.assign(new Error('MESSAGE_TOO_LARGE'), { name: 'KafkaJSProtocolError', retriable: false });
    const answers: RecordMetadata[] = [];
    for (const { topic, messages } of batch.topicMessages!) {
      const byPartition = new Map<number, Message[]>();
      for (const message of messages)
        byPartition.set(message.partition!, [...(byPartition.get(message.partition!) ?? []), message]);
      for (const [partition, inPartition] of byPartition) {
        const key = `${topic}/${partition}`;
        const log = FakeProducer.logs.get(key) ?? [];
        answers.push({ topicName: topic, partition, errorCode: 0, baseOffset: String(log.length) });
        log.push(...inPartition.map((m) => String(m.value)));
        FakeProducer.logs.set(key, log);
      }
    }
    return answers;
  }
}

function session(retries = 3) {
  FakeProducer.logs = new Map();
  FakeProducer.refused = undefined;
  const producers: FakeProducer[] = [];
  const sleeps: number[] = [];
  const made = new ProducerSession(
    () => {
      const producer = new FakeProducer();
      producers.push(producer);
      return producer as unknown as Producer;
    },
    { retries, initialRetryTime: 100, maxRetryTime: 2_000 },
    async (ms) => {
      sleeps.push(ms);
    },
  );
  return { made, producers, sleeps };
}

const retriable = (): Error =>
  Object.assign(new Error('Connection error: the answer was lost'), { name: 'KafkaJSNumberOfRetriesExceeded' });
const message = (value: string, partition = 0): Message => ({ value, partition });

describe('ProducerSession', () => {
  it('sends the sends made while one is in flight together, each topic once, and answers each with its own offsets', async () => {
    const { made, producers } = session();
    await made.connect();
    const first = made.send('a', [message('a1')]);
    const together = [
      made.send('b', [message('b1', 1), message('b2', 0)]),
      made.send('a', [message('a2'), message('a3', 1)]),
      made.send('b', [message('b3', 1)]),
    ];
    expect(await first).toEqual([{ topic: 'a', partition: 0, offset: '0' }]);
    expect(await Promise.all(together)).toEqual([
      [
        { topic: 'b', partition: 1, offset: '0' },
        { topic: 'b', partition: 0, offset: '0' },
      ],
      [
        { topic: 'a', partition: 0, offset: '1' },
        { topic: 'a', partition: 1, offset: '0' },
      ],
      [{ topic: 'b', partition: 1, offset: '1' }],
    ]);
    expect(producers[0]!.requests).toEqual([
      [{ topic: 'a', values: ['a1'] }],
      [
        { topic: 'b', values: ['b1', 'b2', 'b3'] },
        { topic: 'a', values: ['a2', 'a3'] },
      ],
    ]);
    expect(FakeProducer.logs.get('b/1')).toEqual(['b1', 'b3']);
  });

  it('sends a send made as another one is answered (nothing is left waiting in the queue)', async () => {
    const { made } = session();
    await made.connect();
    const second = made.send('a', [message('first')]).then(() => made.send('a', [message('second')]));
    expect(await second).toEqual([{ topic: 'a', partition: 0, offset: '1' }]);
  });

  it('tries a failed batch again with a new producer, waiting longer each time, and answers from the attempt that worked', async () => {
    const { made, producers, sleeps } = session();
    await made.connect();
    producers[0]!.failNext = [retriable()];
    const sent = made.send('a', [message('x')]);
    await expect(sent).resolves.toEqual([{ topic: 'a', partition: 0, offset: '0' }]);
    expect(producers).toHaveLength(2);
    expect(producers[0]!.disconnected).toBe(true);
    expect(sleeps).toEqual([100]);
    // The next send goes out on the new producer, which is kept while it works.
    await made.send('a', [message('y')]);
    expect(producers).toHaveLength(2);
    expect(producers[1]!.requests.map((r) => r[0]!.values)).toEqual([['x'], ['y']]);
  });

  it('fails the batch after the last retry, and after an error kafkajs would not retry at once; the next send takes a new producer', async () => {
    const { made, producers, sleeps } = session(2);
    await made.connect();
    producers[0]!.failNext = [retriable()];
    const factory = producers.length;
    // Every new producer fails its first send too.
    const original = FakeProducer.prototype.connect;
    FakeProducer.prototype.connect = async function (this: FakeProducer) {
      this.failNext = [retriable()];
      return original.call(this);
    };
    try {
      await expect(made.send('a', [message('x')])).rejects.toThrow('the answer was lost');
    } finally {
      FakeProducer.prototype.connect = original;
    }
    expect(producers.length - factory).toBe(2);
    expect(sleeps).toEqual([100, 200]);
    // The next send takes a new producer; an error kafkajs would not retry fails the batch at once.
    expect(await made.send('a', [message('after')])).toEqual([{ topic: 'a', partition: 0, offset: '0' }]);
    const current = producers.at(-1)!;
    current.failNext = [Object.assign(new Error('MESSAGE_TOO_LARGE'), { name: 'KafkaJSNonRetriableError' })];
    await expect(made.send('a', [message('big')])).rejects.toThrow('MESSAGE_TOO_LARGE');
    expect(sleeps).toEqual([100, 200]);
    expect(current.requests).toHaveLength(2);
    await made.send('a', [message('next')]);
    expect(producers.at(-1)).not.toBe(current);
  });

  it('sends each send of a batch the broker refused for good alone, so only the refused one fails', async () => {
    const { made, producers, sleeps } = session();
    await made.connect();
    FakeProducer.refused = 'too large';
    const first = made.send('a', [message('a1')]);
    const refused = made.send('a', [message('too large')]);
    const others = [made.send('a', [message('a2')]), made.send('b', [message('b1')])];
    await first;
    await expect(refused).rejects.toThrow('MESSAGE_TOO_LARGE');
    expect(await Promise.all(others)).toEqual([
      [{ topic: 'a', partition: 0, offset: '1' }],
      [{ topic: 'b', partition: 0, offset: '0' }],
    ]);
    // The coalesced batch once, then each send alone; nothing waited for a retry.
    expect(
      producers.flatMap((producer) => producer.requests).map((request) => request.flatMap((t) => t.values)),
    ).toEqual([['a1'], ['too large', 'a2', 'b1'], ['too large'], ['a2'], ['b1']]);
    expect(sleeps).toEqual([]);
    expect(FakeProducer.logs.get('a/0')).toEqual(['a1', 'a2']);
  });

  it('disconnects a producer that failed to connect, and fails the batch without retrying it', async () => {
    const { made, producers } = session();
    await made.connect();
    producers[0]!.failNext = [retriable()];
    const original = FakeProducer.prototype.connect;
    FakeProducer.prototype.connect = async function (this: FakeProducer) {
      this.failConnect = new Error('No broker available');
      return original.call(this);
    };
    try {
      await expect(made.send('a', [message('x')])).rejects.toThrow('No broker available');
    } finally {
      FakeProducer.prototype.connect = original;
    }
    expect(producers).toHaveLength(2);
    expect(producers[1]!.disconnected).toBe(true);
  });

  it('answers where a partition had no offset in the answer with a retriable error, only for the sends with records there', async () => {
    const { made, producers } = session();
    await made.connect();
    const fake = producers[0]!;
    const send = fake.sendBatch.bind(fake);
    fake.sendBatch = async (batch) => (await send(batch)).filter((answer) => answer.partition !== 3);
    const [fine, unknown] = await Promise.allSettled([
      made.send('a', [message('one', 0)]),
      made.send('a', [message('two', 3)]),
    ]);
    expect(fine).toEqual({ status: 'fulfilled', value: [{ topic: 'a', partition: 0, offset: '0' }] });
    expect(unknown).toMatchObject({
      status: 'rejected',
      reason: { type: 'UNKNOWN_TOPIC_OR_PARTITION', retriable: true },
    });
  });

  it('refuses a send once closed, after the sends already asked for went out', async () => {
    const { made, producers } = session();
    await made.connect();
    const before = made.send('a', [message('x')]);
    await made.close();
    expect(await before).toEqual([{ topic: 'a', partition: 0, offset: '0' }]);
    expect(producers[0]!.disconnected).toBe(true);
    await expect(made.send('a', [message('y')])).rejects.toThrow('closed');
  });
});
