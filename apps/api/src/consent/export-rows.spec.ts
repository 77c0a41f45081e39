import { describe, expect, it } from 'vitest';
import { csvFields, withoutLeadRows } from './export-rows';

describe('withoutLeadRows', () => {
  it("drops the lead's record only, even when a field holds a quoted line break or comma", () => {
    const csv = [
      'id,email,first_name',
      'lead_a,a@example.edu,"Ann, ""the first"""',
      'lead_b,b@example.edu,"Bob\nsecond line"',
      'lead_c,c@example.edu,Cy',
      '',
    ].join('\n');
    expect(withoutLeadRows(csv, 'lead_b')).toEqual({
      text: ['id,email,first_name', 'lead_a,a@example.edu,"Ann, ""the first"""', 'lead_c,c@example.edu,Cy', ''].join(
        '\n',
      ),
      removed: 1,
      rows: 2,
    });
  });

  it('keeps a record that only mentions the id inside another field, and the header', () => {
    const csv = 'id,notes\nlead_a,see lead_b\nlead_b,x\n';
    expect(withoutLeadRows(csv, 'lead_b')).toMatchObject({
      text: 'id,notes\nlead_a,see lead_b\n',
      removed: 1,
      rows: 1,
    });
    expect(csvFields('"a""b",c\r\n')).toEqual(['a"b', 'c']);
  });
});
