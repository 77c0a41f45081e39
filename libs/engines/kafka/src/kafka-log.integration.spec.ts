import { lookupInfra } from '@leadstream/ports/contract/infra';
import { eventLogContract } from '@leadstream/ports/contract/event-log.contract';
import type { EventLog } from '@leadstream/ports';
import { openKafkaLog } from './index';

const kafka = lookupInfra('KAFKA_BROKERS');
const brokers = kafka.value;

eventLogContract(
  'kafka',
  brokers
    ? async () => {
        const open = (): Promise<EventLog> => openKafkaLog({ brokers, clientId: 'event-log-contract' });
        let log = await open();
        return {
          log,
          // A new client: the group's state lives in the broker, as after a process restart.
          reopen: async () => {
            await log.close();
            log = await open();
            return log;
          },
          cleanup: async () => {
            await log.close();
          },
        };
      }
    : undefined,
);
