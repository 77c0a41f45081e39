export { openKafkaLog, KafkaLog, type KafkaLogOptions } from './kafka-log';
export type { KafkaLogLogger } from './kafkajs-logger';
export type { KafkaConsumerTuning } from './kafka-consumer';
