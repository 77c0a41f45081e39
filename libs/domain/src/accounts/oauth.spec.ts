import { describe, expect, it } from 'vitest';
import {
  OAuthError,
  parseScope,
  REDIRECT_URI_PATTERN,
  redirectUriProblem,
  s256Challenge,
  scopesBeyondRole,
  verifyPkce,
} from './oauth';

describe('PKCE S256 (RFC 7636)', () => {
  const verifier = 'dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk';
  const challenge = 'E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM';

  it('matches the example of appendix B', () => {
    expect(s256Challenge(verifier)).toBe(challenge);
    expect(verifyPkce(verifier, challenge)).toBe(true);
  });

  it('refuses another verifier, a malformed one and the challenge itself (plain)', () => {
    expect(verifyPkce(`${verifier.slice(0, -1)}Y`, challenge)).toBe(false);
    expect(verifyPkce('too-short', s256Challenge('too-short'))).toBe(false);
    expect(verifyPkce(challenge, challenge)).toBe(false);
  });
});

describe('scopes', () => {
  it('parses space-separated scopes, distinct, in a fixed order', () => {
    expect(parseScope('vendors:read leads:read  vendors:read')).toEqual(['leads:read', 'vendors:read']);
  });

  it('refuses unknown, missing and non-OAuth permissions as invalid_scope', () => {
    for (const raw of ['leads:read users:write', '', undefined, 'organization:delete']) {
      expect(() => parseScope(raw)).toThrow(OAuthError);
    }
  });

  it("names the scopes beyond the user's role", () => {
    expect(scopesBeyondRole('viewer', ['leads:read', 'vendors:read', 'leads:write'])).toEqual([
      'vendors:read',
      'leads:write',
    ]);
    expect(scopesBeyondRole('admin', ['organization:write', 'webhooks:write'])).toEqual([]);
    expect(scopesBeyondRole('vendor', ['leads:read'])).toEqual(['leads:read']);
  });
});

describe('redirect URIs', () => {
  it.each([
    'https://crm.example.com/cb',
    'https://crm.example.com:8443/oauth?tenant=1',
    'http://127.0.0.1:3000/cb',
    'http://localhost/cb',
    'http://[::1]:8080/cb',
    'http://127.0.0.1:54321/callback',
    'https://crm.example.com:65535/cb',
  ])('accepts %s', (uri) => {
    expect(redirectUriProblem(uri)).toBeNull();
    // The document's pattern (what clients and Schemathesis read) takes what the API takes.
    expect(new RegExp(REDIRECT_URI_PATTERN).test(uri)).toBe(true);
  });

  const SHAPE = 'must be https://host[:port][/path][?query] with a lower-case DNS host name';
  const ABSOLUTE = 'must be an absolute URL';

  it.each([
    ['https://crm.example.com:0/cb', SHAPE],
    // Beyond 65535 the URL itself does not parse.
    ['https://crm.example.com:65536/cb', ABSOLUTE],
    ['https://crm.example.com:99999/cb', ABSOLUTE],
  ])('refuses the port of %s, in the document pattern too', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
    expect(new RegExp(REDIRECT_URI_PATTERN).test(uri)).toBe(false);
  });

  it.each([
    ['http://crm.example.com/cb', 'must use https (http is allowed only for 127.0.0.1, [::1] and localhost)'],
    ['https://crm.example.com/cb#frag', 'must not contain a fragment'],
    ['https://crm.example.com/cb#', 'must not contain a fragment'],
    ['/cb', ABSOLUTE],
    ['crm.example.com/cb', ABSOLUTE],
    ['ftp://x.example.com/', 'must use https'],
    ['https://u:p@x.example.com/', 'must not contain credentials'],
    ['https://n0lbd.o*', SHAPE],
    ['https://CRM.example.com/cb', SHAPE],
    ['https://10.0.0.1/cb', SHAPE],
  ])('refuses %s: %s', (uri, problem) => {
    expect(redirectUriProblem(uri)).toBe(problem);
  });
});
