/**
 * The vendor-name column of a downloaded export, on its own: the CSV is cut into chunks at every
 * place (inside a quoted field, between a quote and its escape, inside a UTF-8 character, between
 * CR and LF), and each cut must give the same file.
 */
import { Readable } from 'node:stream';
import { text } from 'node:stream/consumers';
import { describe, expect, it } from 'vitest';
import { withVendorNames } from './vendor-names';

const names = new Map([
  ['v-1', 'Fairs, "East"'],
  ['v-2', '=HYPERLINK("x")'],
  ['v-3', 'Écoles'],
]);

const run = (chunks: Array<string | Buffer>): Promise<string> => text(withVendorNames(Readable.from(chunks), names));

describe('withVendorNames', () => {
  const csv = [
    'id,note,vendor_id,status',
    'a,"said ""hi"",\nthen left",v-1,active',
    'b,é,v-2,active',
    'c,,v-gone,rejected',
    'd,"x",v-3,active',
    '',
  ].join('\n');
  const expected = [
    'id,note,vendor_id,vendor_name,status',
    'a,"said ""hi"",\nthen left",v-1,"Fairs, ""East""",active',
    `b,é,v-2,"'=HYPERLINK(""x"")",active`,
    'c,,v-gone,,rejected',
    'd,"x",v-3,Écoles,active',
    '',
  ].join('\n');

  it('adds vendor_name after vendor_id, quoted and guarded as csv-stringify and the export do', async () => {
    expect(await run([csv])).toBe(expected);
  });

  it('gives the same file however the stream is cut, even inside a UTF-8 character', async () => {
    const bytes = Buffer.from(csv, 'utf8');
    for (let cut = 1; cut < bytes.length; cut++)
      expect(await run([bytes.subarray(0, cut), bytes.subarray(cut)]), `cut at ${cut}`).toBe(expected);
    expect(await run([...bytes].map((byte) => Buffer.from([byte])))).toBe(expected);
  });

  it('handles CRLF line ends, a last record without a line end, and vendor_id as the last column', async () => {
    expect(await run(['id,vendor_id\r\na,v-1\r\nb,v-3'])).toBe(
      'id,vendor_id,vendor_name\r\na,v-1,"Fairs, ""East"""\r\nb,v-3,Écoles',
    );
  });

  it('passes a file without vendor_id unchanged', async () => {
    expect(await run(['id,status\n', 'a,active\n'])).toBe('id,status\na,active\n');
  });
});
