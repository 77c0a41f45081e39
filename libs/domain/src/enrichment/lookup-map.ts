/** Lookup tables by name, as rules and formulas read them. */
export function lookupTableMap(
  tables: ReadonlyArray<{ name: string; mappings: Readonly<Record<string, string>> }>,
): ReadonlyMap<string, Readonly<Record<string, string>>> {
  return new Map(tables.map((table) => [table.name, table.mappings]));
}
