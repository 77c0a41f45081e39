/**
 * How the suite tells that the service has recovered from a fault: a probe lead, sent after the
 * fault began (again with a new email while it is refused), is recovered when it has every effect
 * of the pipeline: acknowledged, stored and synced (GET /api/leads/:id), its CRM record, its
 * lead.created and lead.crm_synced webhooks at the receiver, its activity entries, and whatever
 * the half adds (its rows in ClickHouse). The time from the fault's start to then is the fault's
 * time to recover.
 */
import { leadSubmission } from './load';
import type { CrmProcess, WebhookReceiverProcess } from './receivers';

export interface ProbeOptions {
  base: () => string;
  key: string;
  token: string;
  run: string;
  crm: CrmProcess;
  receiver: WebhookReceiverProcess;
  /** Acknowledged probes join the load's acknowledged leads: the checks cover them too. */
  acknowledged: Map<string, string>;
  /** What else must be true of the lead (undefined when it is), e.g. its rows in the analytics engine. */
  extra?: (leadId: string) => Promise<string | undefined>;
}

const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

async function getJson(
  url: string,
  token: string,
): Promise<{ status: number; body: Record<string, unknown> } | undefined> {
  try {
    const response = await fetch(url, {
      headers: { authorization: `Bearer ${token}` },
      signal: AbortSignal.timeout(5_000),
    });
    return { status: response.status, body: (await response.json()) as Record<string, unknown> };
  } catch {
    return undefined;
  }
}

export class Prober {
  private count = 0;
  constructor(private readonly options: ProbeOptions) {}

  /** Sends probe leads until one is acknowledged; resolves with its id, or undefined at the deadline. */
  private async send(deadline: number): Promise<string | undefined> {
    while (Date.now() < deadline) {
      const submission = leadSubmission(`probe${this.options.run}`, this.count++);
      try {
        const response = await fetch(`${this.options.base()}/api/v1/leads/ingest`, {
          method: 'POST',
          headers: { authorization: `Bearer ${this.options.key}`, 'content-type': 'application/json' },
          body: JSON.stringify(submission),
          signal: AbortSignal.timeout(Math.max(1_000, Math.min(15_000, deadline - Date.now()))),
        });
        const body = (await response.json()) as { lead_id?: unknown };
        if ((response.status === 201 || response.status === 202) && typeof body.lead_id === 'string') {
          this.options.acknowledged.set(body.lead_id, String(submission['email']));
          return body.lead_id;
        }
      } catch {
        // no answer: the API is away
      }
      await sleep(250);
    }
    return undefined;
  }

  /** What the lead still lacks, or undefined when it has every effect. */
  private async lacking(leadId: string): Promise<string | undefined> {
    const { base, token, crm, receiver } = this.options;
    const lead = await getJson(`${base()}/api/leads/${leadId}`, token);
    const data = lead?.body['data'] as { status?: string; crm_sync_status?: string } | undefined;
    if (!data) return 'the lead is not readable';
    if (data.status !== 'active' || data.crm_sync_status !== 'synced')
      return `the lead is ${String(data.status)}, crm ${String(data.crm_sync_status)}`;
    const records = await crm.records(leadId).catch(() => undefined);
    if (!records?.records.some((record) => record.externalId === leadId)) return 'no CRM record';
    const delivered = new Set(
      (await receiver.received(leadId).catch(() => []))
        .filter((delivery) => delivery.leadId === leadId)
        .map((delivery) => delivery.event),
    );
    for (const event of ['lead.created', 'lead.crm_synced']) if (!delivered.has(event)) return `no ${event} webhook`;
    const activity = await getJson(`${base()}/api/leads/${leadId}/activity`, token);
    const entries = new Set(((activity?.body['data'] ?? []) as Array<{ event: string }>).map((entry) => entry.event));
    for (const event of ['lead.created', 'lead.crm_synced'])
      if (!entries.has(event)) return `no ${event} activity entry`;
    return this.options.extra ? this.options.extra(leadId) : undefined;
  }

  /**
   * Resolves with the seconds from `since` until a probe had every effect, or undefined if none did
   * within `boundMs`; `lastMissing` tells what the last probe lacked.
   */
  async recovery(
    since: number,
    boundMs: number,
  ): Promise<{ seconds: number | undefined; leadId: string | undefined; lastMissing: string }> {
    const deadline = since + boundMs;
    const leadId = await this.send(deadline);
    if (!leadId) return { seconds: undefined, leadId, lastMissing: 'no probe lead was acknowledged' };
    let missing: string | undefined = 'not checked';
    while (Date.now() < deadline) {
      missing = await this.lacking(leadId).catch((error: unknown) => `check failed: ${String(error)}`);
      if (missing === undefined) return { seconds: (Date.now() - since) / 1000, leadId, lastMissing: '' };
      await sleep(200);
    }
    return { seconds: undefined, leadId, lastMissing: missing ?? '' };
  }
}
