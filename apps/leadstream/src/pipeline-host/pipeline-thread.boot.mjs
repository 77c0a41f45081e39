// Entry of the pipeline worker thread: TypeScript loads through tsx there too (worker threads do
// not inherit the main thread's module hooks), then pipeline-thread.ts runs.
import { register } from 'tsx/esm/api';

register();
await import('./pipeline-thread.ts');
