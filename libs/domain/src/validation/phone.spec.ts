import { describe, expect, it } from 'vitest';
import { normalizePhone } from './phone';

describe('normalizePhone', () => {
  it.each([
    // input, default country, E.164
    ['(201) 555-0123', 'US', '+12015550123'],
    ['201.555.0123', 'US', '+12015550123'],
    ['+1 201 555 0123', 'GB', '+12015550123'],
    ['1-201-555-0123', 'US', '+12015550123'],
    ['011 44 20 7946 0958', 'US', '+442079460958'], // US international prefix
    ['020 7946 0958', 'GB', '+442079460958'], // national number in the organization's country
    ['+44 7911 123456', 'US', '+447911123456'],
    ['+33 6 12 34 56 78', 'US', '+33612345678'], // 9-digit national number, 11 digits in E.164
    ['06 12 34 56 78', 'FR', '+33612345678'],
    ['+91 98765 43210', 'US', '+919876543210'],
  ])('%s (default %s) → %s', (input, country, e164) => {
    expect(normalizePhone(input, country)).toEqual({ ok: true, e164 });
  });

  it.each([
    ['hello', 'US', 'is not a phone number'],
    ['555-0123', 'US', 'is not a valid phone number'], // no area code
    ['(555) 555-5555', 'US', 'is not a valid phone number'], // area code 555 is not assigned
    ['+999 1234567890', 'US', 'needs a valid country code (e.g. +44) for international numbers'],
    ['020 7946 0958', 'XX', 'needs a valid country code (e.g. +44) for international numbers'], // no usable default country
    ['+1 201 555 0123 4567 8901 2345', 'US', 'is too long to be a phone number'],
    ['+298 211234', 'US', 'must have at least 10 digits including the country code'], // Faroe Islands: a valid number of 9 digits
  ])('rejects %s (default %s)', (input, country, message) => {
    expect(normalizePhone(input, country)).toEqual({ ok: false, message });
  });
});
