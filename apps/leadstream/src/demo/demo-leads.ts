/**
 * The demo's synthetic traffic: mostly good leads from two vendors, with every case the pipeline
 * decides differently mixed in at fixed places, so a run of 60 shows each outcome.
 */
export interface DemoKeys {
  inquiryLive: string;
  inquirySandbox: string;
  applicationLive: string;
}

export interface DemoLead {
  scenario: string;
  vendor: string;
  key: string;
  sandbox: boolean;
  body: Record<string, unknown>;
  /** How long before sending the form was opened; `form_started_at` is set from it at send time. */
  formAgeMs?: number;
}

const FIRST = [
  'Maya',
  'Liam',
  'Aisha',
  'Noah',
  'Sofia',
  'Ethan',
  'Priya',
  'Lucas',
  'Chloe',
  'Mateo',
  'Hana',
  'Omar',
  'Zoe',
  'Kenji',
  'Amara',
];
const LAST = [
  'Okafor',
  'Nguyen',
  'Fischer',
  'Alvarez',
  'Kowalski',
  'Haddad',
  'Tanaka',
  'Brennan',
  'Silva',
  'Lindqvist',
  'Mensah',
  'Rossi',
  'Dubois',
  'Patel',
  'Moreau',
];
const PROGRAMS = [
  'BSc Computer Science',
  'MBA',
  'BA Psychology',
  'MSc Nursing',
  'BEng Mechanical Engineering',
  'MA Education',
];
const DOMAINS = ['gmail.com', 'outlook.com', 'yahoo.com', 'icloud.com', 'proton.me'];

export function demoScenarios(count: number, keys: DemoKeys): DemoLead[] {
  const leads: DemoLead[] = [];
  const person = (i: number, domain = DOMAINS[i % DOMAINS.length]!) => {
    const first = FIRST[i % FIRST.length]!;
    const last = LAST[(i * 7) % LAST.length]!;
    return {
      email: `${first.toLowerCase()}.${last.toLowerCase()}${i}@${domain}`,
      first_name: first,
      last_name: last,
      phone: `+1617555${String(1000 + i).slice(-4)}`,
      program_interest: PROGRAMS[i % PROGRAMS.length],
      source: 'college-search',
      utm_source: 'google',
      utm_campaign: 'fall-intake',
    };
  };
  const inquiry = (scenario: string, body: Record<string, unknown>): DemoLead => ({
    scenario,
    vendor: 'inquiry (live)',
    key: keys.inquiryLive,
    sandbox: false,
    body,
  });
  const first = person(1, 'gmail.com');
  const special: DemoLead[] = [
    inquiry('invalid email', { ...person(101), email: 'maya.okafor(at)gmail' }),
    inquiry('disposable email', { ...person(102), email: 'free.trial@mailinator.com' }),
    inquiry('typo (gmial.com)', { ...person(103), email: 'liam.nguyen103@gmial.com' }),
    inquiry('bot honeypot', { ...person(104), website: 'http://cheap-pills.example' }),
    { ...inquiry('too-fast form (0.4 s)', person(105)), formAgeMs: 400 },
    inquiry('duplicate (same email)', { ...first }),
    inquiry('near-duplicate (dots/+)', {
      ...first,
      email: first.email.replace('.', '').replace('@', '+fall@').toUpperCase(),
    }),
    inquiry('missing email', { ...person(106), email: '  ' }),
    {
      scenario: 'sandbox test lead',
      vendor: 'inquiry (sandbox)',
      key: keys.inquirySandbox,
      sandbox: true,
      body: person(107),
    },
    {
      scenario: 'sandbox disposable',
      vendor: 'inquiry (sandbox)',
      key: keys.inquirySandbox,
      sandbox: true,
      body: { ...person(108), email: 'x@mailinator.com' },
    },
    // An earlier inquirer applies: not a duplicate (an application is compared with applications),
    // and a conversion for the funnel.
    {
      scenario: 'applies after inquiring',
      vendor: 'application (live)',
      key: keys.applicationLive,
      sandbox: false,
      body: person(3),
    },
  ];
  // The first lead is the original the duplicates point at.
  leads.push(inquiry('valid', first));
  let next = 2;
  const every = Math.max(1, Math.floor((count - 1) / (special.length + 1)));
  for (let i = 1; leads.length < count; i++) {
    const due = special[0] && i % every === 0;
    if (due) {
      leads.push(special.shift()!);
      continue;
    }
    const body = person(next++);
    leads.push(
      next % 3 === 0
        ? { scenario: 'valid', vendor: 'application (live)', key: keys.applicationLive, sandbox: false, body }
        : inquiry('valid', body),
    );
  }
  // A short run still shows every case.
  return [...leads.slice(0, count - special.length), ...special].slice(0, Math.max(count, leads.length));
}
