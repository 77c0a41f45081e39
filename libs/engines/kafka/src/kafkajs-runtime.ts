/**
 * kafkajs is CommonJS and spreads part of its exports, which Node's ESM loader cannot always name;
 * taking the default export and destructuring it works under tsx, vitest and plain Node alike.
 */
import kafkajs from 'kafkajs';

export const { Kafka, Partitioners, logLevel } = kafkajs;
