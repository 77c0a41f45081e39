import { describe, expect, it } from 'vitest';
import { parseConfigChanged, parseLeadCommand, SchemaError } from '../index';

const command = {
  schema_version: 1,
  message_id: 'msg_1',
  correlation_id: 'corr_1',
  lead_id: 'lead_abc',
  organization_id: 'org_1',
  environment: 'live',
  vendor_id: 'v1',
  submitted_at: '2025-01-01T00:00:00.000Z',
};

describe('config_version on lead commands', () => {
  it('is optional and, when present, a non-negative integer', () => {
    expect(parseLeadCommand(command)).toEqual(command);
    expect(parseLeadCommand({ ...command, config_version: 0 }).config_version).toBe(0);
    expect(parseLeadCommand({ ...command, config_version: 7 }).config_version).toBe(7);
    expect(() => parseLeadCommand({ ...command, config_version: 1.5 })).toThrow(SchemaError);
    expect(() => parseLeadCommand({ ...command, config_version: -1 })).toThrow(SchemaError);
    expect(() => parseLeadCommand({ ...command, config_version: '3' })).toThrow(SchemaError);
  });
});

describe('config.changed messages', () => {
  const message = {
    schema_version: 1,
    organization_id: 'org_1',
    version: 3,
    what: 'api_keys',
    changed_at: '2025-01-01T00:00:00.000Z',
  };

  it('accepts a change and refuses a version below 1 or unknown fields', () => {
    expect(parseConfigChanged(message)).toEqual(message);
    expect(() => parseConfigChanged({ ...message, version: 0 })).toThrow(SchemaError);
    expect(() => parseConfigChanged({ ...message, extra: true })).toThrow(SchemaError);
    expect(() => parseConfigChanged({ ...message, organization_id: undefined })).toThrow(SchemaError);
  });
});
