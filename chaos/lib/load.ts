/**
 * The load of a run: a few clients sending unique, valid leads to the vendor API, mostly one at a
 * time (POST /api/v1/leads/ingest) and now and then a batch (POST /api/v1/leads/bulk-ingest), with
 * no retries: a lead that got no acknowledgement is simply not counted as acknowledged (it may
 * still be stored; the checks allow that). An acknowledgement is a 201 or 202 with a lead id, or a
 * batch result with `success` and a lead id.
 *
 * Every answer is classified; an answer that refuses a valid lead for a reason other than load or
 * an outage (a 4xx other than 429, a success without a lead id) and an error answer not in the
 * vendor API's error format (`{success: false, error, code}`) are kept as problems.
 */

export interface LoadOptions {
  base: () => string;
  key: string;
  run: string;
  clients: number;
  /** Stop after this many single-lead requests (the run may stop it earlier). */
  maxSingles: number;
  /** One client sends a batch instead of a single lead every `bulkEvery` requests. */
  bulkEvery: number;
  bulkSize: number;
  /** Requests per second, all clients together (a batch counts as one request): the load must leave the pipeline room to catch up after a fault. */
  ratePerSecond: number;
  requestTimeoutMs: number;
}

const FIRST = [
  'Ada',
  'Grace',
  'Alan',
  'Katherine',
  'Linus',
  'Margaret',
  'Dennis',
  'Barbara',
  'Ken',
  'Frances',
  'Edsger',
  'Radia',
];
const LAST = [
  'Lovelace',
  'Hopper',
  'Turing',
  'Johnson',
  'Torvalds',
  'Hamilton',
  'Ritchie',
  'Liskov',
  'Thompson',
  'Allen',
  'Dijkstra',
  'Perlman',
];

/** Every submission of the process gets its own phone number and name: deduplication also matches on those. */
let person = 0;

/** A valid lead nobody sent before: the email names the run and the index, phone and name are unique too. */
export function leadSubmission(run: string, index: number): Record<string, unknown> {
  const n = person++;
  return {
    email: `chaos.${run}.${index}@example.edu`,
    first_name: FIRST[n % FIRST.length],
    last_name: `${LAST[(n * 7) % LAST.length]}-${n.toString(36)}`,
    phone: `+1617${String(5_000_000 + (n % 4_999_999)).padStart(7, '0')}`,
    program_interest: 'MSc Data Science',
    source: 'search',
    utm_source: 'chaos',
    form_started_at: new Date(Date.now() - 60_000).toISOString(),
  };
}

/** Answers seen while a fault lasted (or any other window), by status. */
export class AnswerWindow {
  readonly answers: Record<string, number> = {};
  closed = false;
  add(status: string): void {
    if (!this.closed) this.answers[status] = (this.answers[status] ?? 0) + 1;
  }
}

export class LoadGenerator {
  /** Acknowledged lead id -> email. */
  readonly acknowledged = new Map<string, string>();
  readonly statuses: Record<string, number> = {};
  readonly problems: string[] = [];
  singles = 0;
  batches = 0;
  leadsInBatches = 0;
  private next = 0;
  /** When the next request may start (all clients share the pace). */
  private nextSlot = 0;
  private stopped = false;
  private running: Promise<void> | undefined;
  private readonly windows = new Set<AnswerWindow>();

  constructor(private readonly options: LoadOptions) {}

  /** The index the next lead gets (leads sent by others, the probes, use their own run id). */
  get sent(): number {
    return this.next;
  }

  start(): void {
    this.stopped = false;
    this.running = Promise.all(Array.from({ length: this.options.clients }, (_, client) => this.client(client))).then(
      () => undefined,
    );
  }

  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  get done(): boolean {
    return this.stopped || this.singles >= this.options.maxSingles;
  }

  window(): AnswerWindow {
    const window = new AnswerWindow();
    this.windows.add(window);
    return window;
  }

  closeWindow(window: AnswerWindow): void {
    window.closed = true;
    this.windows.delete(window);
  }

  private count(status: string): void {
    this.statuses[status] = (this.statuses[status] ?? 0) + 1;
    for (const window of this.windows) window.add(status);
  }

  private async client(client: number): Promise<void> {
    let requests = 0;
    while (!this.done) {
      const now = Date.now();
      const wait = Math.max(0, this.nextSlot - now);
      this.nextSlot = Math.max(this.nextSlot, now) + 1000 / this.options.ratePerSecond;
      if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait));
      if (this.done) break;
      requests++;
      const acknowledged =
        client === 0 && requests % this.options.bulkEvery === 0 ? await this.bulk() : await this.single();
      // Refused or unanswered (an outage): back off a little, as a vendor's client would, instead of spinning.
      if (!acknowledged) await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }

  private async post(
    path: string,
    body: unknown,
  ): Promise<{ status: number; body: Record<string, unknown> | undefined; raw: string } | undefined> {
    try {
      const response = await fetch(`${this.options.base()}${path}`, {
        method: 'POST',
        headers: { authorization: `Bearer ${this.options.key}`, 'content-type': 'application/json' },
        body: JSON.stringify(body),
        signal: AbortSignal.timeout(this.options.requestTimeoutMs),
      });
      const raw = await response.text();
      let parsed: Record<string, unknown> | undefined;
      try {
        parsed = JSON.parse(raw) as Record<string, unknown>;
      } catch {
        parsed = undefined;
      }
      return { status: response.status, body: parsed, raw };
    } catch {
      return undefined; // refused, reset or timed out: no answer
    }
  }

  /** A refusal must be in the vendor API's error format; one that is not is a problem. */
  private checkErrorFormat(
    what: string,
    answer: { status: number; body: Record<string, unknown> | undefined; raw: string },
  ): void {
    const body = answer.body;
    if (!body || body['success'] !== false || typeof body['error'] !== 'string' || typeof body['code'] !== 'string') {
      this.problems.push(`${what}: ${answer.status} not in the error format: ${answer.raw.slice(0, 200)}`);
    }
  }

  /** Sends one lead; true when it was acknowledged. */
  private async single(): Promise<boolean> {
    const index = this.next++;
    this.singles++;
    const submission = leadSubmission(this.options.run, index);
    const answer = await this.post('/api/v1/leads/ingest', submission);
    if (!answer) {
      this.count('no answer');
      return false;
    }
    this.count(String(answer.status));
    const leadId = answer.body?.['lead_id'];
    if ((answer.status === 201 || answer.status === 202) && typeof leadId === 'string') {
      this.acknowledged.set(leadId, String(submission['email']));
      return true;
    }
    if (answer.status >= 500 || answer.status === 429)
      this.checkErrorFormat(`lead ${String(submission['email'])}`, answer);
    else
      this.problems.push(`lead ${String(submission['email'])} answered ${answer.status}: ${answer.raw.slice(0, 300)}`);
    return false;
  }

  /** Sends one batch; true when it was answered 200 (its results say which leads were acknowledged). */
  private async bulk(): Promise<boolean> {
    const submissions = Array.from({ length: this.options.bulkSize }, () =>
      leadSubmission(this.options.run, this.next++),
    );
    this.batches++;
    this.leadsInBatches += submissions.length;
    const answer = await this.post('/api/v1/leads/bulk-ingest', { leads: submissions });
    if (!answer) {
      this.count('bulk no answer');
      return false;
    }
    this.count(`bulk ${answer.status}`);
    if (answer.status !== 200) {
      if (answer.status >= 500 || answer.status === 429)
        this.checkErrorFormat(`batch of ${submissions.length}`, answer);
      else this.problems.push(`batch of ${submissions.length} answered ${answer.status}: ${answer.raw.slice(0, 300)}`);
      return false;
    }
    const results = (answer.body?.['results'] ?? []) as Array<{
      index: number;
      success: boolean;
      lead_id?: string;
      error?: string;
    }>;
    if (results.length !== submissions.length)
      this.problems.push(`batch of ${submissions.length} answered ${results.length} results`);
    for (const result of results) {
      const email = String(submissions[result.index]?.['email']);
      if (result.success && typeof result.lead_id === 'string') this.acknowledged.set(result.lead_id, email);
      else this.problems.push(`lead ${email} in a batch: ${JSON.stringify(result).slice(0, 300)}`);
    }
    return true;
  }
}
