/**
 * Names of the indexes in an `explain()` answer.
 *
 * MongoDB: every IXSCAN-like stage of `queryPlanner.winningPlan` (classic or SBE `queryPlan`)
 * carries `indexName`; an `_id` point lookup shows as IDHACK / EXPRESS_IXSCAN.
 * FerretDB 1.24 (SQLite backend): `queryPlanner.Plan` holds SQLite's EXPLAIN QUERY PLAN lines,
 * where an index is `<collection>_<8 hex>_<index name>`.
 */
type Explained = { [key: string]: unknown };

export function indexNamesFromExplain(explain: Explained): string[] {
  const names = new Set<string>();
  const planner = explain['queryPlanner'] as Explained | undefined;
  if (!planner) return [];
  visit(planner['winningPlan'], names);
  const sqlitePlan = planner['Plan'];
  if (Array.isArray(sqlitePlan)) {
    for (const line of sqlitePlan) {
      const used = /USING (?:COVERING )?INDEX (\S+)/.exec(String(line))?.[1];
      if (used) names.add(/^.*?_[0-9a-f]{8}_(.+)$/.exec(used)?.[1] ?? used);
    }
  }
  return [...names];
}

function visit(node: unknown, names: Set<string>): void {
  if (Array.isArray(node)) {
    for (const item of node) visit(item, names);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const stage = (node as Explained)['stage'];
  const indexName = (node as Explained)['indexName'];
  if (typeof indexName === 'string') names.add(indexName);
  else if (stage === 'IDHACK' || stage === 'EXPRESS_IXSCAN' || stage === 'EXPRESS_IDHACK') names.add('_id_');
  for (const value of Object.values(node)) visit(value, names);
}
