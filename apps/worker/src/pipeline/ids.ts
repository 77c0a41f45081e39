import { randomUUID } from 'node:crypto';

/** Prefix-style ids of the spec (section 2): lead_, evt_, ... followed by 32 hex characters. */
export function newId(prefix: 'lead' | 'evt' | 'msg' | 'corr' | 'rwh'): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}
