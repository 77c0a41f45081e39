export * from './filesystem-export-files';
export * from './gridfs-export-files';
export * from './open-export-files';
