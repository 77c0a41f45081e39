/** Calls across a real MessageChannel: answers in any order, errors with their code, the other end gone. */
import { MessageChannel } from 'node:worker_threads';
import { afterEach, describe, expect, it } from 'vitest';
import { callsOver, serveCalls } from './channel-calls';

const KINDS = { call: 'test.call', reply: 'test.reply' };
const channels: MessageChannel[] = [];
afterEach(() => {
  for (const channel of channels.splice(0)) {
    channel.port1.close();
    channel.port2.close();
  }
});

function connected(run: (body: { n: number }) => Promise<unknown>, gone?: Promise<unknown>) {
  const channel = new MessageChannel();
  channels.push(channel);
  const stop = serveCalls(channel.port1, KINDS, run);
  return { caller: callsOver<{ n: number }>(channel.port2, KINDS, gone), stop };
}

describe('calls across a worker_threads channel', () => {
  it('answers each call with its own result, in the order the answers come', async () => {
    const release = new Map<number, () => void>();
    let bothArrived!: () => void;
    const arrived = new Promise<void>((resolve) => (bothArrived = resolve));
    const { caller } = connected(
      ({ n }) =>
        new Promise((resolve) => {
          release.set(n, () => resolve({ doubled: n * 2 }));
          if (release.size === 2) bothArrived();
        }),
    );
    const first = caller.call<{ doubled: number }>({ n: 1 });
    const second = caller.call<{ doubled: number }>({ n: 2 });
    await arrived;
    release.get(2)!();
    expect(await second).toEqual({ doubled: 4 });
    release.get(1)!();
    expect(await first).toEqual({ doubled: 2 });
  });

  it('rejects with the error of the other end, its name, code and retriable flag kept', async () => {
    const { caller } = connected(async () => {
      throw Object.assign(new Error('the lead is being changed'), {
        name: 'WriteConflictError',
        code: 'CONFLICT',
        retriable: true,
      });
    });
    const error = await caller.call({ n: 1 }).catch((caught: unknown) => caught);
    expect(error).toMatchObject({
      message: 'the lead is being changed',
      name: 'WriteConflictError',
      code: 'CONFLICT',
      retriable: true,
    });
  });

  it('fails the calls waiting and every later one once the other end is gone, or the caller is closed', async () => {
    let exit!: () => void;
    const gone = new Promise<void>((resolve) => (exit = resolve));
    const { caller } = connected(() => new Promise(() => undefined), gone);
    const waiting = caller.call({ n: 1 });
    exit();
    await expect(waiting).rejects.toThrow('the pipeline thread has exited');
    await expect(caller.call({ n: 2 })).rejects.toThrow('the pipeline thread has exited');

    const other = connected(() => new Promise(() => undefined));
    const left = other.caller.call({ n: 3 });
    other.caller.close('the event log of the pipeline thread is closed');
    await expect(left).rejects.toThrow('the event log of the pipeline thread is closed');
    await expect(other.caller.call({ n: 4 })).rejects.toThrow('the event log of the pipeline thread is closed');
  });

  it('stops answering once the server stops', async () => {
    const channel = new MessageChannel();
    channels.push(channel);
    const served: string[] = [];
    const stop = serveCalls<{ n: number }>(channel.port1, KINDS, async ({ n }) => served.push(`first ${n}`));
    const caller = callsOver<{ n: number }>(channel.port2, KINDS);
    await caller.call({ n: 1 });
    stop();
    serveCalls<{ n: number }>(channel.port1, KINDS, async ({ n }) => served.push(`second ${n}`));
    await caller.call({ n: 2 });
    expect(served).toEqual(['first 1', 'second 2']);
  });
});
