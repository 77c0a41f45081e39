/**
 * One `leads.events` record for the events a batch produces for a lead (docs/pipeline.md "One
 * record a lead on leads.events"): a chained batch decides created, validated, enriched and
 * accepted in one go, and writing them as one record is one append (one produce) instead of four,
 * and one record for each reader (notify, activity, the projector) to read. Readers take the
 * record apart with `parseLeadEvents`.
 */
import { TOPICS } from '@leadstream/runtime';
import { leadEventsRecordValue } from '@leadstream/schemas';
import type { BatchWrite, OutputRecord } from './batch-write';

/** Packs the event outputs of every lead of the batch (`packEventOutputs`). */
export function packLeadEvents(write: Pick<BatchWrite, 'leads'>): void {
  for (const entry of write.leads) entry.outputs = packEventOutputs(entry.outputs);
}

/**
 * `outputs` with each run of `leads.events` outputs that share a key and headers as one record, at
 * the place of the run's first; the events keep their order (a run ends at an event output with
 * another key or other headers), and outputs to other topics keep theirs.
 */
export function packEventOutputs(outputs: OutputRecord[]): OutputRecord[] {
  if (outputs.filter((output) => output.topic === TOPICS.events).length < 2) return outputs;
  const packed: OutputRecord[] = [];
  let run: { index: number; values: string[]; same: (output: OutputRecord) => boolean } | undefined;
  const close = () => {
    if (run && run.values.length > 1)
      packed[run.index] = { ...packed[run.index]!, value: leadEventsRecordValue(run.values) };
  };
  for (const output of outputs) {
    if (output.topic !== TOPICS.events) {
      packed.push(output);
      continue;
    }
    if (run?.same(output)) {
      run.values.push(output.value);
      continue;
    }
    close();
    const headers = headersKey(output.headers);
    run = {
      index: packed.length,
      values: [output.value],
      same: (next) => next.key === output.key && headersKey(next.headers) === headers,
    };
    packed.push(output);
  }
  close();
  return packed;
}

function headersKey(headers: Record<string, string> | undefined): string {
  if (!headers) return '';
  return JSON.stringify(Object.entries(headers).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
