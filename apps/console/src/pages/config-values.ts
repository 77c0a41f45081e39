/**
 * Reading what people type into configuration forms: a value (JSON when it parses, else text),
 * lookup-table mappings as `key = value` lines. Pure, unit-tested.
 */

/** `3`, `true`, `["a","b"]`, `{"field":"x"}` as JSON; anything else as the text typed; empty as undefined. */
export function typedValue(text: string): unknown {
  const trimmed = text.trim();
  if (trimmed === '') return undefined;
  try {
    return JSON.parse(trimmed) as unknown;
  } catch {
    return text;
  }
}

/** `key = value` (or `key,value`) lines; blank lines and lines without a separator are skipped. */
export function parseMappings(text: string): Record<string, string> {
  const mappings: Record<string, string> = {};
  for (const line of text.split(/\r?\n/)) {
    const match = /^\s*([^=,]+?)\s*[=,]\s*(.*?)\s*$/.exec(line);
    if (match?.[1] && match[2] !== undefined) mappings[match[1]] = match[2];
  }
  return mappings;
}

export function formatMappings(mappings: Record<string, string>): string {
  return Object.entries(mappings)
    .map(([key, value]) => `${key} = ${value}`)
    .join('\n');
}

/** `CRM field = lead field` lines as a mapping (null when empty). */
export function fieldMappingOf(text: string): Record<string, string> | null {
  const mapping: Record<string, string> = {};
  for (const line of text.split('\n')) {
    if (!line.trim()) continue;
    const at = line.indexOf('=');
    if (at < 1) throw new Error(`Field mapping: “${line.trim()}” is not “CRM field = lead field”.`);
    mapping[line.slice(0, at).trim()] = line.slice(at + 1).trim();
  }
  return Object.keys(mapping).length ? mapping : null;
}
