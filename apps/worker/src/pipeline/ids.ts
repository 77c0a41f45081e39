import { newId as timeOrderedId } from '@leadstream/runtime';

/** Prefix-style ids of the pipeline (docs/api-conventions.md "Identifiers"), ordered by time (`newId` of @leadstream/runtime). */
export function newId(prefix: 'lead' | 'evt' | 'msg' | 'corr' | 'rwh'): string {
  return timeOrderedId(prefix);
}
