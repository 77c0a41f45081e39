/**
 * Phone numbers (docs/decisions.md "Validation"): valid format, at least 10 digits, valid country
 * code, stored in E.164.
 *
 * `libphonenumber-js/max` rather than `/min`: `/min` only checks a number's length for its country,
 * so `+1 555 555 5555` or `+44 00000 000000` would pass as "valid"; `/max` carries the full
 * per-country number patterns, so "valid format" means a number the country actually assigns. The
 * larger metadata (~150 kB) does not matter on a server.
 *
 * "At least 10 digits" counts the digits of the E.164 form (country code included): counting only
 * the national number would refuse every French (9-digit) mobile number.
 */
import { isSupportedCountry, parsePhoneNumberWithError, ParseError, type CountryCode } from 'libphonenumber-js/max';

export const MIN_PHONE_DIGITS = 10;

export type PhoneResult = { ok: true; e164: string } | { ok: false; message: string };

/**
 * Normalizes a phone number written in any format to E.164. National numbers (no `+` or
 * international prefix) are read in `defaultCountry`, the organization's default (ISO 3166 alpha-2).
 */
export function normalizePhone(input: string, defaultCountry: string): PhoneResult {
  const country: CountryCode | undefined = isSupportedCountry(defaultCountry) ? defaultCountry : undefined;
  try {
    const phone = parsePhoneNumberWithError(input, country ? { defaultCountry: country } : {});
    if (!phone.isValid()) return { ok: false, message: 'is not a valid phone number' };
    const e164 = phone.number;
    if (e164.length - 1 < MIN_PHONE_DIGITS) {
      return { ok: false, message: `must have at least ${MIN_PHONE_DIGITS} digits including the country code` };
    }
    return { ok: true, e164 };
  } catch (error) {
    if (error instanceof ParseError)
      return { ok: false, message: PARSE_MESSAGES[error.message] ?? 'is not a valid phone number' };
    throw error;
  }
}

const PARSE_MESSAGES: Readonly<Record<string, string>> = {
  // No `+`/prefix and no usable default country, or a `+` followed by an unknown calling code.
  INVALID_COUNTRY: 'needs a valid country code (e.g. +44) for international numbers',
  NOT_A_NUMBER: 'is not a phone number',
  TOO_SHORT: `must have at least ${MIN_PHONE_DIGITS} digits including the country code`,
  TOO_LONG: 'is too long to be a phone number',
  INVALID_LENGTH: 'is not a valid phone number',
};
