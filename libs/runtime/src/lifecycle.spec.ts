import { pino } from 'pino';
import { describe, expect, it } from 'vitest';
import { Lifecycle } from './lifecycle';

describe('Lifecycle', () => {
  it('stops parts newest first, each awaited, once however often stop is called', async () => {
    const lifecycle = new Lifecycle(pino({ level: 'silent' }), 1_000);
    const order: string[] = [];
    lifecycle.onStop('engines', async () => {
      order.push('engines');
    });
    lifecycle.onStop('consumer', async () => {
      await new Promise((resolve) => setTimeout(resolve, 20));
      order.push('consumer');
    });
    lifecycle.onStop('http', async () => {
      order.push('http');
    });
    expect(lifecycle.isStopping).toBe(false);
    const first = lifecycle.stop('test');
    const second = lifecycle.stop('again');
    expect(lifecycle.isStopping).toBe(true);
    await Promise.all([first, second]);
    expect(order).toEqual(['http', 'consumer', 'engines']);
  });

  it('keeps stopping the other parts when one fails', async () => {
    const lifecycle = new Lifecycle(pino({ level: 'silent' }), 1_000);
    const order: string[] = [];
    lifecycle.onStop('engines', async () => {
      order.push('engines');
    });
    lifecycle.onStop('broken', async () => {
      throw new Error('cannot stop');
    });
    await lifecycle.stop('test');
    expect(order).toEqual(['engines']);
  });
});
