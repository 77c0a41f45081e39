import { describe, expect, it } from 'vitest';
import { parseReprocessRequest } from './reprocess-request';

describe('parseReprocessRequest', () => {
  it('takes the stages in pipeline order and the filters of the export', () => {
    expect(parseReprocessRequest({ stages: ['route', 'enrich'], filter: { status: 'active' } })).toEqual({
      ok: true,
      request: { filter: { status: 'active' }, stages: ['enrich', 'route'], dry_run: false },
    });
  });

  it('refuses a stage named twice (Schemathesis sent ["route","route","route","route"] and got 202)', () => {
    expect(parseReprocessRequest({ stages: ['route', 'route', 'route', 'route'] })).toEqual({
      ok: false,
      details: [{ field: 'stages', message: 'stages must name each stage once' }],
    });
  });

  it('refuses crm-sync without route and an unknown stage, naming the field', () => {
    expect(parseReprocessRequest({ stages: ['crm-sync'] })).toMatchObject({
      ok: false,
      details: [{ field: 'stages', message: 'crm-sync needs route: a CRM sync follows a changed route' }],
    });
    expect(parseReprocessRequest({ stages: ['validate'] })).toMatchObject({
      ok: false,
      details: [{ field: 'stages', message: 'unknown stages: validate' }],
    });
  });
});
