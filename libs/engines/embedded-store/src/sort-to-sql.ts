import { type SortSpec } from '@leadstream/ports';
import { fieldExpr } from './sql-names';

export type IndexKeys = Record<string, 1 | -1>;

/**
 * ORDER BY for a sort spec, always ending in rowid so that pages (skip/limit) are stable.
 *
 * Every SQLite index ends in the rowid (ascending), so the tie-breaker is free when an index gives
 * the order, but only in the direction that index is walked: forwards (rowid ASC) when the sort
 * agrees with the index's declared directions, backwards (rowid DESC) when it is their mirror
 * image. Otherwise SQLite adds a temp B-tree sort for the last term, so we pick the direction
 * from the first declared index that holds the sort keys in a row.
 */
export function compileSort(
  sort: SortSpec | undefined,
  indexes: IndexKeys[] = [],
  columns?: ReadonlySet<string>,
): string {
  const entries = Object.entries(sort ?? {});
  const keys = entries.map(([path, dir]) => `${fieldExpr(path, columns)} ${dirSql(dir)}`);
  keys.push(`rowid ${dirSql(tieBreakDirection(entries, indexes))}`);
  return keys.join(', ');
}

function tieBreakDirection(entries: [string, number][], indexes: IndexKeys[]): 1 | -1 {
  const first = entries[0];
  if (!first) return 1;
  for (const index of indexes) {
    const indexEntries = Object.entries(index);
    const start = indexEntries.findIndex(([path]) => path === first[0]);
    if (start < 0) continue;
    const run = indexEntries.slice(start, start + entries.length);
    if (run.length !== entries.length || run.some(([path], i) => path !== entries[i]![0])) continue;
    const same = run.every(([, dir], i) => dir === entries[i]![1]);
    const mirrored = run.every(([, dir], i) => dir === -entries[i]![1]);
    if (same) return 1;
    if (mirrored) return -1;
  }
  return 1;
}

function dirSql(dir: number): string {
  if (dir !== 1 && dir !== -1) throw new TypeError(`sort direction must be 1 or -1, got ${dir}`);
  return dir === 1 ? 'ASC' : 'DESC';
}
