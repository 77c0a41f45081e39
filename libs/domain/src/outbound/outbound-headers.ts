/**
 * Headers an organization configures for the requests leadstream sends on its behalf: the
 * `headers` of an enrichment rule's webhook action, and the header a CRM connection puts its
 * credential in. They are checked when saved, and again where a rule webhook is sent (a rule saved
 * before this check may still carry a bad one).
 */

/**
 * Headers that decide where a request goes or how its body is framed, or that concern only the
 * next hop. leadstream sets them itself; a configured one could smuggle a second request or reach
 * another host behind the same address. Lower case: header names compare without case.
 */
export const FORBIDDEN_OUTBOUND_HEADERS = [
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
] as const;

/** The longest header value a rule webhook may carry (a CRM credential may be longer). */
export const MAX_OUTBOUND_HEADER_VALUE = 1_000;

/** A header name is an HTTP token: letters, digits and these symbols, nothing else. */
const HEADER_NAME = /^[A-Za-z0-9!#$%&'*+.^_`|~-]+$/;
/** Visible ASCII, space and tab: no CR, LF, NUL, other control characters or non-ASCII text. */
const HEADER_VALUE = /^[\t\x20-\x7e]*$/;

/**
 * Why this header may not be sent, or null when it may. Without a value only the name is checked
 * (a CRM connection names its header in its settings and keeps the value in its credentials).
 */
export function outboundHeaderProblem(
  name: string,
  value?: string,
  maxValueLength: number = MAX_OUTBOUND_HEADER_VALUE,
): string | null {
  if (!HEADER_NAME.test(name))
    return `header name ${JSON.stringify(name)} may contain only letters, digits and !#$%&'*+-.^_\`|~`;
  if ((FORBIDDEN_OUTBOUND_HEADERS as readonly string[]).includes(name.toLowerCase()))
    return `header ${name} may not be set (leadstream sets it itself)`;
  if (value === undefined) return null;
  if (value.length > maxValueLength) return `the value of header ${name} must be at most ${maxValueLength} characters`;
  if (!HEADER_VALUE.test(value))
    return `the value of header ${name} may contain only visible ASCII characters, spaces and tabs (no line breaks or NUL)`;
  return null;
}
