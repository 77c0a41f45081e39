/**
 * Disposable (throw-away) email domains (refused unless the organization allows them), from the
 * maintained `disposable-email-domains` package rather than a hand list. Its `index.json` lists
 * exact domains and `wildcard.json` lists domains whose every subdomain is disposable; we match the
 * domain and each parent domain against both, so `x.mailinator.com` counts as `mailinator.com`.
 * Import attributes load the JSON the same way under tsx, vitest and tsc.
 */
import disposableDomains from 'disposable-email-domains' with { type: 'json' };
import wildcardDomains from 'disposable-email-domains/wildcard.json' with { type: 'json' };

const DISPOSABLE = new Set<string>([...disposableDomains, ...wildcardDomains].map((d) => d.toLowerCase()));

/** True when the lowercased domain, or any parent domain of it, is a known disposable domain. */
export function isDisposableDomain(domain: string): boolean {
  const labels = domain.toLowerCase().split('.');
  // Stop before the bare TLD: a TLD itself is never on the list and must not match.
  for (let i = 0; i < labels.length - 1; i += 1) {
    if (DISPOSABLE.has(labels.slice(i).join('.'))) return true;
  }
  return false;
}
