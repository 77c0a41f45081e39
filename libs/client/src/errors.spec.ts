import { describe, expect, it } from 'vitest';
import { apiErrorOf, rateLimitOf } from './index';

describe('reading answers', () => {
  it('reads an error of each convention as one shape', () => {
    expect(
      apiErrorOf(400, {
        error: {
          code: 'VALIDATION_ERROR',
          message: 'Validation failed',
          details: [{ field: 'email', message: 'email is required' }],
        },
      }),
    ).toEqual({
      status: 400,
      code: 'VALIDATION_ERROR',
      message: 'Validation failed',
      details: [{ field: 'email', message: 'email is required' }],
    });
    expect(apiErrorOf(409, { success: false, error: 'Duplicate lead detected', duplicate_of: 'lead_1' })).toEqual({
      status: 409,
      code: 'Duplicate lead detected',
      message: 'Duplicate lead detected',
      details: [],
    });
    expect(
      apiErrorOf(429, { success: false, error: 'Rate limit exceeded', code: 'RATE_LIMIT_EXCEEDED', retry_after: 12 }),
    ).toMatchObject({ code: 'RATE_LIMIT_EXCEEDED', retryAfter: 12 });
    expect(apiErrorOf(401, { error: 'invalid_client', error_description: 'unknown client' })).toEqual({
      status: 401,
      code: 'invalid_client',
      message: 'unknown client',
      details: [],
    });
  });

  it('reads the rate-limit headers, and nothing when an answer has none', () => {
    const limited = new Response(null, {
      status: 429,
      headers: {
        'x-ratelimit-limit': '100',
        'x-ratelimit-remaining': '0',
        'x-ratelimit-reset': '1790000000',
        'retry-after': '7',
      },
    });
    expect(rateLimitOf(limited)).toEqual({ limit: 100, remaining: 0, reset: 1790000000, retryAfter: 7 });
    expect(rateLimitOf(new Response(null))).toBeUndefined();
  });
});
