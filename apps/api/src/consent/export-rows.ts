/**
 * Removing one lead's rows from a stored CSV export (an erasure, docs/consent.md). Records are
 * split the way RFC 4180 quotes them, so a field with line breaks stays one record; a record goes
 * when one of its fields is exactly the lead's id.
 */

/** The CSV's records, each with its own line ending, in order. */
export function csvRecords(text: string): string[] {
  const records: string[] = [];
  let start = 0;
  let quoted = false;
  for (let index = 0; index < text.length; index++) {
    const char = text[index];
    if (char === '"') quoted = !quoted;
    else if (char === '\n' && !quoted) {
      records.push(text.slice(start, index + 1));
      start = index + 1;
    }
  }
  if (start < text.length) records.push(text.slice(start));
  return records;
}

/** The unquoted fields of one record. */
export function csvFields(record: string): string[] {
  const fields: string[] = [];
  let field = '';
  let quoted = false;
  const line = record.replace(/\r?\n$/, '');
  for (let index = 0; index < line.length; index++) {
    const char = line[index]!;
    if (quoted) {
      if (char === '"' && line[index + 1] === '"') {
        field += '"';
        index++;
      } else if (char === '"') quoted = false;
      else field += char;
    } else if (char === '"') quoted = true;
    else if (char === ',') {
      fields.push(field);
      field = '';
    } else field += char;
  }
  fields.push(field);
  return fields;
}

/** The CSV without the records of `leadId` (the header stays), and how many data rows remain. */
export function withoutLeadRows(text: string, leadId: string): { text: string; removed: number; rows: number } {
  const records = csvRecords(text);
  const kept = records.filter((record, index) => index === 0 || !csvFields(record).includes(leadId));
  return {
    text: kept.join(''),
    removed: records.length - kept.length,
    rows: Math.max(0, kept.filter((record) => record.trim() !== '').length - 1),
  };
}
