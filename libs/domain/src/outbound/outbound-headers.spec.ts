import { describe, expect, it } from 'vitest';
import { FORBIDDEN_OUTBOUND_HEADERS, outboundHeaderProblem } from './outbound-headers';

describe('outboundHeaderProblem', () => {
  it('accepts ordinary header names and values', () => {
    expect(outboundHeaderProblem('X-Api-Key', 'k1')).toBeNull();
    expect(outboundHeaderProblem('Authorization', 'Bearer abc.def\tghi')).toBeNull();
    expect(outboundHeaderProblem("x!#$%&'*+-.^_`|~9", '')).toBeNull();
    // Without a value only the name is checked (a CRM connection's auth_header setting).
    expect(outboundHeaderProblem('X-Api-Key')).toBeNull();
  });

  it('refuses names with characters outside the RFC 7230 token set', () => {
    for (const name of ['', 'X A', 'X-A:', 'X-A\r\nX-Injected', 'X(A)', 'X"A', 'X/A', 'Ünicode', 'X\u0000A']) {
      expect(outboundHeaderProblem(name, 'v'), JSON.stringify(name)).toMatch(/header name/);
    }
  });

  it('refuses values with CR, LF, NUL, other control characters or non-ASCII text', () => {
    for (const value of ['v\r\nX-Injected: 4', 'v\nX', 'v\rX', 'v\u0000', 'v\u007f', 'v\u0001', 'café', 'v\u2028']) {
      expect(outboundHeaderProblem('X-A', value), JSON.stringify(value)).toMatch(/value of header X-A/);
    }
  });

  it('keeps the length limit of a value, 1000 characters unless the caller says otherwise', () => {
    expect(outboundHeaderProblem('X-A', 'a'.repeat(1_000))).toBeNull();
    expect(outboundHeaderProblem('X-A', 'a'.repeat(1_001))).toMatch(/at most 1000 characters/);
    expect(outboundHeaderProblem('X-A', 'a'.repeat(4_000), 4_000)).toBeNull();
  });

  it('refuses hop-by-hop and framing headers whatever their case', () => {
    expect(FORBIDDEN_OUTBOUND_HEADERS).toEqual([
      'host',
      'content-length',
      'transfer-encoding',
      'connection',
      'keep-alive',
      'upgrade',
      'te',
      'trailer',
      'proxy-connection',
      'proxy-authorization',
      'expect',
    ]);
    for (const name of [
      'Host',
      'HOST',
      'host',
      'Content-Length',
      'Transfer-Encoding',
      'Connection',
      'Keep-Alive',
      'Upgrade',
      'TE',
      'Trailer',
      'Proxy-Connection',
      'proxy-AUTHORIZATION',
      'Expect',
    ]) {
      expect(outboundHeaderProblem(name, 'x'), name).toMatch(/may not be set/);
      expect(outboundHeaderProblem(name), name).toMatch(/may not be set/);
    }
  });
});
