import { describe, expect, it } from 'vitest';
import { csvCell, DEFAULT_EXPORT_FIELDS, parseExportRequest, startsLikeFormula } from './export';

describe('parseExportRequest', () => {
  it('defaults to csv with the list columns and no filters', () => {
    expect(parseExportRequest({})).toEqual({
      ok: true,
      request: { format: 'csv', filters: {}, fields: [...DEFAULT_EXPORT_FIELDS] },
    });
  });

  it('normalizes dates as GET /leads does: end_date includes its whole day', () => {
    const parsed = parseExportRequest({
      format: 'csv',
      filters: { start_date: '2026-01-01', end_date: '2026-01-31', status: 'active' },
    });
    expect(parsed).toMatchObject({
      ok: true,
      request: {
        filters: { start_date: '2026-01-01T00:00:00.000Z', end_date: '2026-02-01T00:00:00.000Z', status: 'active' },
      },
    });
    const exact = parseExportRequest({ filters: { end_date: '2026-01-31T12:00:00Z' } });
    expect(exact).toMatchObject({ ok: true, request: { filters: { end_date: '2026-01-31T12:00:00.001Z' } } });
  });

  it('reports every problem with its field', () => {
    const parsed = parseExportRequest({
      format: 'json',
      fields: [],
      filters: { end_date: '2026-02-30', search: 42 },
      extra: true,
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.details.map((detail) => detail.field).sort()).toEqual([
      'extra',
      'fields',
      'filters.end_date',
      'filters.search',
      'format',
    ]);
  });

  it('drops repeated fields, keeping their order', () => {
    expect(parseExportRequest({ fields: ['email', 'id', 'email'] })).toMatchObject({
      ok: true,
      request: { fields: ['email', 'id'] },
    });
  });
});

describe('csvCell', () => {
  it('neutralises text a spreadsheet would run, but not numbers or E.164 phones', () => {
    expect(csvCell('=1+2')).toBe("'=1+2");
    expect(csvCell('@SUM(A1)')).toBe("'@SUM(A1)");
    expect(csvCell('-2+3+cmd|x')).toBe("'-2+3+cmd|x");
    expect(csvCell('+14155552671')).toBe('+14155552671');
    expect(csvCell(-12.5)).toBe('-12.5');
    expect(csvCell(null)).toBe('');
    expect(csvCell({ state: 'CA' })).toBe('{"state":"CA"}');
  });

  it('neutralises a pipe (DDE) and the full-width = + - @ that spreadsheets read as formula starts', () => {
    expect(csvCell("|cmd'/C calc'!A0")).toBe("'|cmd'/C calc'!A0");
    expect(csvCell('\uFF1D1+2')).toBe("'\uFF1D1+2");
    expect(csvCell('\uFF0BSUM(A1)')).toBe("'\uFF0BSUM(A1)");
    expect(csvCell('\uFF0D2+3')).toBe("'\uFF0D2+3");
    expect(csvCell('\uFF20SUM(A1)')).toBe("'\uFF20SUM(A1)");
    expect(csvCell('\tx')).toBe("'\tx");
    expect(csvCell('\rx')).toBe("'\rx");
    // Only at the start, as with the ASCII characters.
    expect(csvCell('a|b \uFF1D c')).toBe('a|b \uFF1D c');
  });

  it('tells whether text starts like a formula (the vendor portal report uses it too)', () => {
    expect(startsLikeFormula('\uFF1D1')).toBe(true);
    expect(startsLikeFormula('|x')).toBe(true);
    expect(startsLikeFormula('Ann')).toBe(false);
    expect(startsLikeFormula('')).toBe(false);
  });
});
