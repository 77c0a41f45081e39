// Entry of an enrichment tester thread (enrichment-tester.ts): TypeScript loads through tsx there
// too (worker threads do not inherit the main thread's module hooks), then the thread's code runs.
import { register } from 'tsx/esm/api';

register();
await import('./enrichment-tester.thread.ts');
