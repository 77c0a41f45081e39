export {
  openEmbeddedLog,
  EmbeddedLog,
  type EmbeddedLogOptions,
  type EmbeddedLogLogger,
  type LogTransaction,
  type SharedConnection,
} from './embedded-log';
export { DataDirLockedError } from './data-dir-lock';
export { LogPruner, type LogPrunerOptions, type LogRetentionOptions, type PruneReport } from './log-retention';
