import { describe, expect, it } from 'vitest';
import { TOPICS } from '@leadstream/runtime';
import { parseLeadEvents } from '@leadstream/schemas';
import { emptyBatchWrite, type OutputRecord } from './batch-write';
import { packEventOutputs, packLeadEvents } from './pack-events';

const envelope = (id: string, event = 'lead.created') =>
  JSON.stringify({
    schema_version: 1,
    id,
    event,
    timestamp: '2026-11-29T07:00:00.000Z',
    organization_id: 'org_1',
    environment: 'live',
    data: { lead_id: 'led_1' },
  });
const event = (id: string, key = 'led_1', headers?: Record<string, string>): OutputRecord => ({
  topic: TOPICS.events,
  key,
  value: envelope(id),
  ...(headers ? { headers } : {}),
});
const other: OutputRecord = { topic: TOPICS.routed, key: 'led_1', value: '{"x":1}' };
const ids = (output: OutputRecord) => parseLeadEvents(output.value).map((message) => message.id);

describe('packEventOutputs', () => {
  it('makes one record of a lead’s events, in their order, where the first was', () => {
    const packed = packEventOutputs([other, event('evt_a'), event('evt_b'), event('evt_c')]);
    expect(packed.map((output) => output.topic)).toEqual([TOPICS.routed, TOPICS.events]);
    expect(packed[0]).toBe(other);
    expect(ids(packed[1]!)).toEqual(['evt_a', 'evt_b', 'evt_c']);
    expect(packed[1]!.key).toBe('led_1');
  });

  it('packs across outputs to other topics, which keep their place', () => {
    const packed = packEventOutputs([event('evt_a'), other, event('evt_b')]);
    expect(packed.map((output) => output.topic)).toEqual([TOPICS.events, TOPICS.routed]);
    expect(ids(packed[0]!)).toEqual(['evt_a', 'evt_b']);
  });

  it('starts a new record where the key or the headers change, so no event overtakes another', () => {
    const packed = packEventOutputs([
      event('evt_a', 'led_1', { 'x-config-version': '3' }),
      event('evt_b', 'led_1', { 'x-config-version': '3' }),
      event('evt_c', 'led_1', { 'x-config-version': '4' }),
      event('evt_d', 'led_2', { 'x-config-version': '4' }),
      event('evt_e', 'led_1', { 'x-config-version': '3' }),
    ]);
    expect(packed.map((output) => [output.key, ids(output)])).toEqual([
      ['led_1', ['evt_a', 'evt_b']],
      ['led_1', ['evt_c']],
      ['led_2', ['evt_d']],
      ['led_1', ['evt_e']],
    ]);
    expect(packed[0]!.headers).toEqual({ 'x-config-version': '3' });
  });

  it('leaves a single event as the envelope it was (readers of one event per record keep working)', () => {
    const single = event('evt_a');
    expect(packEventOutputs([single, other])).toEqual([single, other]);
    expect(JSON.parse(single.value)).toMatchObject({ id: 'evt_a' });
  });

  it('splices a record that already holds several events instead of nesting it', () => {
    const [first] = packEventOutputs([event('evt_a'), event('evt_b')]);
    const [again] = packEventOutputs([first!, event('evt_c')]);
    expect(ids(again!)).toEqual(['evt_a', 'evt_b', 'evt_c']);
  });

  it('packs each lead of a batch write', () => {
    const write = emptyBatchWrite();
    write.leads.push({ lead: { _id: 'led_1' } as never, previous: null, outputs: [event('evt_a'), event('evt_b')] });
    packLeadEvents(write);
    expect(write.leads[0]!.outputs).toHaveLength(1);
    expect(ids(write.leads[0]!.outputs[0]!)).toEqual(['evt_a', 'evt_b']);
  });
});

describe('parseLeadEvents', () => {
  it('refuses an empty array and a record with one bad event', () => {
    expect(() => parseLeadEvents('[]')).toThrow(/at least one event/);
    expect(() => parseLeadEvents(`[${envelope('evt_a')},{"id":"evt_b"}]`)).toThrow(/lead-event/);
    expect(() => parseLeadEvents('not json')).toThrow(SyntaxError);
  });
});
