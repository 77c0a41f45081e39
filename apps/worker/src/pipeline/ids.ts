import { randomUUID } from 'node:crypto';

/** Prefix-style ids (docs/api-conventions.md "Identifiers"): lead_, evt_, ... followed by 32 hex characters. */
export function newId(prefix: 'lead' | 'evt' | 'msg' | 'corr' | 'rwh'): string {
  return `${prefix}_${randomUUID().replace(/-/g, '')}`;
}
