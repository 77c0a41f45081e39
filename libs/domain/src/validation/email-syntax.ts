/**
 * Email syntax (docs/decisions.md "Validation"): the addr-spec of RFC 5322, practically restricted
 * to what mail can actually be delivered to and what an MX lookup can check:
 * - local part: dot-atom (atext runs joined by single dots) or a quoted string;
 * - domain: DNS host name with at least two labels and an alphabetic (or punycode) TLD. Domain
 *   literals (`user@[10.0.0.1]`) and obsolete forms (comments, folding whitespace) are refused,
 *   because they have no MX to check and no real web form produces them;
 * - ASCII only (no RFC 6531 internationalized addresses; IDN domains are accepted in punycode);
 * - length limits of RFC 5321: local part ≤ 64, whole address ≤ 254.
 * The domain is lowercased (case-insensitive by DNS); the local part keeps its case because
 * RFC 5321 lets the receiving server treat it as case-sensitive.
 */

export type EmailSyntaxResult =
  { ok: true; email: string; local: string; domain: string } | { ok: false; message: string };

const MAX_LOCAL_LENGTH = 64;
const MAX_ADDRESS_LENGTH = 254;
const MAX_LABEL_LENGTH = 63;

// atext of RFC 5322 section 3.2.3.
const DOT_ATOM = /^[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[A-Za-z0-9!#$%&'*+/=?^_`{|}~-]+)*$/;
// quoted-string: printable ASCII except `"` and `\`, or a backslash-escaped printable/space.
const QUOTED_STRING = /^"(?:[\x20\x21\x23-\x5b\x5d-\x7e]|\\[\x20-\x7e])*"$/;
const LABEL = /^[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/;
const TLD = /^(?:[a-z]{2,63}|xn--[a-z0-9-]{1,59})$/;

export function parseEmail(input: string): EmailSyntaxResult {
  const email = input.trim();
  if (email.length === 0) return { ok: false, message: 'is required' };
  if (email.length > MAX_ADDRESS_LENGTH) {
    return { ok: false, message: `must be at most ${MAX_ADDRESS_LENGTH} characters` };
  }
  // The last `@` splits: a quoted local part may itself contain `@`.
  const at = email.lastIndexOf('@');
  if (at <= 0 || at === email.length - 1)
    return { ok: false, message: 'must be an email address like name@example.com' };

  const local = email.slice(0, at);
  const domain = email.slice(at + 1).toLowerCase();
  if (local.length > MAX_LOCAL_LENGTH) {
    return { ok: false, message: `local part must be at most ${MAX_LOCAL_LENGTH} characters` };
  }
  if (!DOT_ATOM.test(local) && !QUOTED_STRING.test(local)) {
    return { ok: false, message: 'has an invalid local part (before @)' };
  }
  const domainProblem = checkDomain(domain);
  if (domainProblem) return { ok: false, message: domainProblem };
  return { ok: true, email: `${local}@${domain}`, local, domain };
}

function checkDomain(domain: string): string | undefined {
  const labels = domain.split('.');
  const tld = labels[labels.length - 1] ?? '';
  if (labels.length < 2) return 'must have a domain with a top-level domain, like example.com';
  if (labels.some((label) => label.length === 0 || label.length > MAX_LABEL_LENGTH || !LABEL.test(label))) {
    return 'has an invalid domain';
  }
  if (!TLD.test(tld)) return 'has an invalid top-level domain';
  return undefined;
}

/** The lowercased domain of a syntactically valid email, for the MX lookup done before `validateLead`. */
export function emailDomain(email: string): string | undefined {
  const parsed = parseEmail(email);
  return parsed.ok ? parsed.domain : undefined;
}
