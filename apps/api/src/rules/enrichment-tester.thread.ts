/**
 * One enrichment tester thread (enrichment-tester.ts): says it is ready, then answers each test it
 * is given with `runEnrichmentTest`, one at a time. The API stops the thread when a test takes
 * longer than its time limit.
 */
import { parentPort } from 'node:worker_threads';
import { runEnrichmentTest } from './enrichment-test';
import type { TesterReply, TesterTask } from './enrichment-tester';

const port = parentPort;
if (!port) throw new Error('enrichment-tester.thread.ts runs as a worker thread');

port.on('message', (task: TesterTask) => {
  let reply: TesterReply;
  try {
    reply = { kind: 'answer', id: task.id, answer: runEnrichmentTest(task.leadData, task.config, task.now) };
  } catch (error) {
    reply = { kind: 'failed', id: task.id, message: error instanceof Error ? error.message : String(error) };
  }
  port.postMessage(reply);
});
port.postMessage({ kind: 'ready' } satisfies TesterReply);
