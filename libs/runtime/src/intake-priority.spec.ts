import { describe, expect, it } from 'vitest';
import { IntakePriority } from './intake-priority';

/** A gate on a clock the test moves: sleeping moves it, and the thread is as busy as `load` says. */
function gate(share = 0.2) {
  const clock = { now: 0, load: 1, slept: [] as number[], waited: 0 };
  const priority = new IntakePriority({
    share,
    now: () => clock.now,
    utilization: () => clock.load,
    sleep: async (ms) => {
      clock.slept.push(ms);
      clock.now += ms;
    },
    onWait: (ms) => (clock.waited += ms),
  });
  return { priority, clock };
}

describe('IntakePriority', () => {
  it('holds outbound work back by its share while the intake runs on a saturated thread', async () => {
    const { priority, clock } = gate(0.2);
    clock.now = 200;
    priority.intakeRan();
    expect(priority.intakeBusy()).toBe(true);
    // An outbound batch whose commit took 10 ms: at a 20 % share the next waits 40 ms.
    priority.outboundRan(10);
    await priority.outboundTurn();
    expect(clock.slept).toEqual([40]);
    expect(clock.now).toBe(240);
    expect(clock.waited).toBe(40);
  });

  it('adds up what every outbound stage owes: two batches of 10 ms owe 80 ms at 20 %', async () => {
    const { priority, clock } = gate(0.2);
    clock.now = 200;
    priority.intakeRan();
    priority.outboundRan(10);
    priority.outboundRan(10);
    await priority.outboundTurn();
    expect(clock.now).toBe(280);
  });

  it('lets outbound work run at once when the thread has time to spare', async () => {
    const { priority, clock } = gate(0.2);
    clock.load = 0.5;
    clock.now = 200;
    priority.intakeRan();
    expect(priority.intakeBusy()).toBe(false);
    priority.outboundRan(10);
    await priority.outboundTurn();
    expect(clock.slept).toEqual([]);
  });

  it('lets outbound work run at once when the intake has not run for a second', async () => {
    const { priority, clock } = gate(0.2);
    clock.now = 200;
    priority.intakeRan();
    priority.outboundRan(10);
    clock.now = 1_300;
    expect(priority.intakeBusy()).toBe(false);
    await priority.outboundTurn();
    expect(clock.slept).toEqual([]);
  });

  it('stops waiting once the intake goes quiet, and at a stop', async () => {
    const { priority, clock } = gate(0.01);
    clock.now = 200;
    priority.intakeRan();
    // 100 ms at 1 % would owe 9.9 s; what is owed is capped at a second, waited in steps.
    priority.outboundRan(100);
    await priority.outboundTurn();
    expect(clock.now).toBe(1_200);
    expect(clock.slept.every((ms) => ms <= 250)).toBe(true);

    priority.intakeRan();
    priority.outboundRan(100);
    let stopping = false;
    const turn = priority.outboundTurn(() => stopping);
    stopping = true;
    await turn;
    expect(clock.now).toBeLessThanOrEqual(1_450);
  });

  it('samples the thread at most every 100 ms', () => {
    const { priority, clock } = gate();
    clock.now = 200;
    priority.intakeRan();
    expect(priority.intakeBusy()).toBe(true);
    clock.load = 0.1;
    clock.now = 250;
    expect(priority.intakeBusy()).toBe(true);
    clock.now = 300;
    expect(priority.intakeBusy()).toBe(false);
  });

  it('refuses a share outside (0, 1]', () => {
    expect(() => new IntakePriority({ share: 0 })).toThrow(RangeError);
    expect(() => new IntakePriority({ share: 1.5 })).toThrow(RangeError);
  });
});
