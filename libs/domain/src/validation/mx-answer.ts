/**
 * The answer of an MX lookup for an email domain (no MX rejects the lead). Three-valued because a
 * DNS failure must never reject leads: only a definite "no MX" rejects. Defined in the domain,
 * which decides on it; the MxResolver port (libs/ports) re-exports it.
 */
export type MxAnswer =
  | { status: 'found'; exchanges: string[] }
  | { status: 'none' }
  /** Timeout, SERVFAIL, or the resolver itself is broken (the canary failed too): accept with a warning. */
  | { status: 'unavailable'; reason: string };
