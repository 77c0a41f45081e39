/**
 * Common email-domain typos: flagged, and the lead still accepted. A typo is
 * only a warning with a suggestion, never a rejection: `gmial.com` may be a real domain, and the
 * person behind the lead is still real. Explicit tables, not edit distance, because distance-1
 * neighbours of big providers are often real providers (`ymail.com`, `gmx.com`).
 */

/** Misspelled first label of a big consumer provider → the provider's label. */
const PROVIDER_TYPOS: Readonly<Record<string, string>> = {
  gmial: 'gmail',
  gmai: 'gmail',
  gnail: 'gmail',
  gamil: 'gmail',
  gmal: 'gmail',
  gmaill: 'gmail',
  gmaii: 'gmail',
  gmil: 'gmail',
  gmali: 'gmail',
  gmsil: 'gmail',
  gmaul: 'gmail',
  gmeil: 'gmail',
  hotmial: 'hotmail',
  hotmal: 'hotmail',
  hotmai: 'hotmail',
  hotmil: 'hotmail',
  hotamil: 'hotmail',
  homail: 'hotmail',
  hotmaill: 'hotmail',
  hormail: 'hotmail',
  hotnail: 'hotmail',
  yaho: 'yahoo',
  yahooo: 'yahoo',
  yhoo: 'yahoo',
  yahho: 'yahoo',
  yahoo0: 'yahoo',
  yaoo: 'yahoo',
  tahoo: 'yahoo',
  outlok: 'outlook',
  outllok: 'outlook',
  outook: 'outlook',
  otlook: 'outlook',
  outlokk: 'outlook',
  oulook: 'outlook',
  iclod: 'icloud',
  icoud: 'icloud',
  icloud0: 'icloud',
  iclould: 'icloud',
};

/** Misspelled top-level domain → the intended one. `.cm`/`.co` are real ccTLDs, so not listed. */
const TLD_TYPOS: Readonly<Record<string, string>> = {
  con: 'com',
  cmo: 'com',
  ocm: 'com',
  comm: 'com',
  coom: 'com',
  vom: 'com',
  xom: 'com',
  cim: 'com',
  cpm: 'com',
  nte: 'net',
  ner: 'net',
  nett: 'net',
  ogr: 'org',
  orgg: 'org',
  prg: 'org',
  eud: 'edu',
  edy: 'edu',
  ude: 'edu',
};

/** Whole domains whose TLD is real but which are almost always a slip for the provider's `.com`. */
const DOMAIN_TYPOS: Readonly<Record<string, string>> = {
  'gmail.co': 'gmail.com',
  'gmail.cm': 'gmail.com',
  'gmail.om': 'gmail.com',
  'yahoo.cm': 'yahoo.com',
  'hotmail.cm': 'hotmail.com',
  'outlook.cm': 'outlook.com',
};

/** The suggested domain for a lowercased email domain, or undefined when it looks fine. */
export function suggestEmailDomain(domain: string): string | undefined {
  const direct = DOMAIN_TYPOS[domain];
  if (direct) return direct;

  const labels = domain.split('.');
  const first = labels[0];
  const last = labels[labels.length - 1];
  if (labels.length < 2 || first === undefined || last === undefined) return undefined;

  const fixedFirst = PROVIDER_TYPOS[first] ?? first;
  const fixedLast = TLD_TYPOS[last] ?? last;
  if (fixedFirst === first && fixedLast === last) return undefined;
  const fixed = [fixedFirst, ...labels.slice(1, -1), fixedLast].join('.');
  return DOMAIN_TYPOS[fixed] ?? fixed;
}
