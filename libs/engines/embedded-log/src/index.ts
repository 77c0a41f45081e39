export { openEmbeddedLog, EmbeddedLog, type EmbeddedLogOptions, type EmbeddedLogLogger } from './embedded-log';
export { DataDirLockedError } from './data-dir-lock';
