import { describe, expect, it } from 'vitest';
import { parseLeadRouted, SchemaError } from '../index';

const routed = {
  schema_version: 1,
  message_id: 'msg_1>validate>dedup>enrich>route',
  correlation_id: 'corr_1',
  lead_id: 'lead_abc',
  organization_id: 'org_1',
  environment: 'live',
  vendor_id: 'v1',
  submitted_at: '2025-01-01T00:00:00.000Z',
  config_version: 4,
  route: {
    rule_id: 'rrl_1',
    reason: 'rule',
    targets: [
      { connection_id: 'crm_1', owner: 'ana@school.edu', queue: null },
      { connection_id: 'crm_2', owner: null, queue: 'undergrad' },
    ],
    routed_at: '2025-01-01T00:00:01.000Z',
  },
};

describe('leads.routed messages', () => {
  it('accepts a routed lead, with or without a rule and with no targets', () => {
    expect(parseLeadRouted(routed)).toEqual(routed);
    expect(
      parseLeadRouted({ ...routed, route: { ...routed.route, rule_id: null, reason: 'none', targets: [] } }).route
        .targets,
    ).toEqual([]);
  });

  it('requires the route and every target field, and refuses unknown fields', () => {
    const { route: _route, ...withoutRoute } = routed;
    expect(() => parseLeadRouted(withoutRoute)).toThrow(SchemaError);
    expect(() =>
      parseLeadRouted({ ...routed, route: { ...routed.route, targets: [{ connection_id: 'crm_1', owner: null }] } }),
    ).toThrow(SchemaError);
    expect(() => parseLeadRouted({ ...routed, route: { ...routed.route, reason: 'guess' } })).toThrow(SchemaError);
    expect(() => parseLeadRouted({ ...routed, submission: {} })).toThrow(SchemaError);
    expect(() => parseLeadRouted({ ...routed, route: { ...routed.route, extra: 1 } })).toThrow(SchemaError);
  });
});
