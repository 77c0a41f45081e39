/**
 * A vendor's name beside its id in a downloaded export: `vendor_name` right after `vendor_id`,
 * added while the file is sent, from the organization's vendors as they are named at download
 * time (a renamed vendor shows its current name, a deleted one an empty cell). The file the export
 * stage wrote stays as it is. The CSV is read as it streams, one character at a time with its
 * quoting state, so an export of any size passes with bounded memory; a file without a
 * `vendor_id` column passes unchanged.
 */
import { StringDecoder } from 'node:string_decoder';
import { Transform, type Readable } from 'node:stream';
import { csvCell } from '@leadstream/domain';

const QUOTE = 0x22;
const COMMA = 0x2c;
const CR = 0x0d;
const LF = 0x0a;

/** A cell as csv-stringify writes it: quoted when it holds a quote, a comma or a line break. */
function csvField(value: string): string {
  const cell = csvCell(value);
  return /[",\r\n]/.test(cell) ? `"${cell.replace(/"/g, '""')}"` : cell;
}

/** The CSV with `vendor_name` after `vendor_id` (by `names`, vendor id to name). */
export function withVendorNames(csv: Readable, names: ReadonlyMap<string, string>): Readable {
  const decoder = new StringDecoder('utf8');
  let header = true;
  /** Index of the vendor_id column; -1 when the header has none (then everything passes as is). */
  let vendorColumn = -1;
  let field = 0;
  /** Whether the current field has not ended yet (a record starts with an open field). */
  let open = true;
  /** Whether the current record has any character yet (the end of the file after a line break is no record). */
  let started = false;
  /** No character of the current field yet: a quote here opens a quoted field. */
  let fieldStart = true;
  let inQuotes = false;
  /** A quote seen inside a quoted field: the next character tells an escaped quote from the end of the quotes. */
  let quoteSeen = false;
  /** The value of the current field, kept only where it is needed (the header, the vendor_id column). */
  let value = '';

  const keeps = (): boolean => header || field === vendorColumn;
  /** What to write when the current field ends: the vendor name after the vendor_id column. */
  const endField = (): string => {
    open = false;
    if (header) {
      if (value === 'vendor_id') vendorColumn = field;
      return value === 'vendor_id' ? ',vendor_name' : '';
    }
    return field === vendorColumn ? `,${csvField(names.get(value) ?? '')}` : '';
  };

  const convert = (text: string): string => {
    if (!header && vendorColumn < 0) return text;
    let out = '';
    let from = 0;
    for (let index = 0; index < text.length; index++) {
      const code = text.charCodeAt(index);
      started = true;
      if (quoteSeen) {
        quoteSeen = false;
        if (code === QUOTE) {
          if (keeps()) value += '"';
          continue;
        }
        inQuotes = false;
      }
      if (inQuotes) {
        if (code === QUOTE) quoteSeen = true;
        else if (keeps()) value += text[index];
        continue;
      }
      if (code === COMMA || code === CR || code === LF) {
        fieldStart = true;
        if (open) {
          const added = endField();
          if (added) {
            out += text.slice(from, index) + added;
            from = index;
          }
        }
        if (code === COMMA) {
          field++;
          open = true;
          value = '';
        } else if (code === LF) {
          header = false;
          field = 0;
          open = true;
          started = false;
          value = '';
        }
        continue;
      }
      const first = fieldStart;
      fieldStart = false;
      if (code === QUOTE && first) {
        inQuotes = true;
        continue;
      }
      if (keeps()) value += text[index];
    }
    return out + text.slice(from);
  };

  const transform = new Transform({
    transform(chunk: Buffer | string, _encoding, done) {
      done(null, convert(typeof chunk === 'string' ? chunk : decoder.write(chunk)));
    },
    flush(done) {
      let rest = convert(decoder.end());
      // A last record without a line break still gets its vendor name.
      if (started && open && (header || vendorColumn >= 0)) rest += endField();
      done(null, rest);
    },
  });
  csv.on('error', (error) => transform.destroy(error));
  return csv.pipe(transform);
}
