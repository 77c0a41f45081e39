/**
 * The log bridge passes the event-log contract: a real embedded log served on one end of a
 * MessageChannel, the port's whole suite run against the other end.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { MessageChannel } from 'node:worker_threads';
import { openEmbeddedLog } from '@leadstream/engine-embedded-log';
import { eventLogContract } from '@leadstream/ports/contract/event-log.contract';
import { connectEventLog, serveEventLog } from './log-bridge';

eventLogContract('embedded, through the thread bridge', async () => {
  const dataDir = mkdtempSync(join(tmpdir(), 'log-bridge-'));
  const served = await openEmbeddedLog({ dataDir });
  const channel = new MessageChannel();
  const stopServing = serveEventLog(served, channel.port1);
  const log = connectEventLog(channel.port2);
  return {
    log,
    cleanup: async () => {
      await log.close();
      await stopServing();
      await served.close();
      channel.port1.close();
      channel.port2.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
});
