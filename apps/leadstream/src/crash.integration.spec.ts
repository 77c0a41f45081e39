/**
 * A SIGKILL of the whole service mid-stream (docs/pipeline.md, the unit of work): every lead
 * acknowledged to a vendor (201 or 202 with a lead id) is stored after a restart, exactly once,
 * with one event of each kind and one activity entry per event. On the embedded engines a stage
 * batch is one SQLite transaction, so the kill lands before or after a batch, never inside one; on
 * Kafka + FerretDB the outbox and the redelivery repair what the kill cut.
 */
import { randomUUID } from 'node:crypto';
import { LeadActivityRepository, LeadRepository } from '@leadstream/dal';
import { TOPICS } from '@leadstream/runtime';
import { readTopic } from '@leadstream/ports/testing/read-topic';
import { afterAll, describe, expect, it } from 'vitest';
import { ensureAllIndexes } from './indexes';
import { CliProcess, serviceEnv } from './test-support/cli-process';
import { engineSetups } from './test-support/engine-setups';
import { parseLeadEvents } from '@leadstream/schemas';

const CLIENTS = 8;
/** Acknowledged leads before the kill: enough that batches are in flight in every stage. */
const BEFORE_KILL = 120;

/** The lead an event is about: `data.lead.id` of lead.created (its documented `{lead:{...}}`), `data.lead_id` of every other lead event; no fallback between the two. */
function leadIdOf(event: { event: string; data: { lead_id?: string; lead?: { id?: string } } }): string | undefined {
  return event.event === 'lead.created' ? event.data.lead?.id : event.data.lead_id;
}

describe.each(engineSetups('crash'))('a SIGKILL of leadstream start on the %s', (_name, makeSetup) => {
  const setup = makeSetup();
  afterAll(async () => setup.cleanup());

  it('loses and duplicates nothing acknowledged', async () => {
    const store = await setup.openStore();
    await ensureAllIndexes(store);
    await store.close();
    const env = serviceEnv({ TOPIC_PARTITIONS: '3', ...setup.env });
    const cli = (...args: string[]): Promise<string> => CliProcess.output(args, env);
    const first = CliProcess.start(['start'], env);
    const base = String((await first.waitFor((line) => line.msg === 'api listening', 120_000))['url']);
    await first.waitFor((line) => line.msg === 'ready');
    const organizationId = await cli('org', 'create', '--name', 'Crash Test University');
    const vendorId = await cli(
      'vendor',
      'create',
      '--org',
      organizationId,
      '--name',
      'Inquiry Co',
      '--type',
      'inquiry',
    );
    const key = String(
      (
        JSON.parse(
          await cli('key', 'create', '--org', organizationId, '--vendor', vendorId, '--json', '--rate-limit', '100000'),
        ) as { key: string }
      ).key,
    );

    // Clients stream unique leads until the kill; every answer with a lead id is an acknowledgement.
    const acknowledged: string[] = [];
    let killed = false;
    let sent = 0;
    const run = randomUUID().slice(0, 8);
    const client = async (): Promise<void> => {
      while (!killed) {
        const index = sent++;
        try {
          const response = await fetch(`${base}/api/v1/leads/ingest`, {
            method: 'POST',
            headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
            body: JSON.stringify({
              email: `crash.${run}.${index}@example.edu`,
              first_name: 'Ada',
              last_name: `Crash${index}x${run}`,
              form_started_at: new Date(Date.now() - 30_000).toISOString(),
            }),
          });
          const body = (await response.json()) as { lead_id?: string };
          if ((response.status === 201 || response.status === 202) && body.lead_id) acknowledged.push(body.lead_id);
          else if (!killed) throw new Error(`unexpected answer ${response.status}: ${JSON.stringify(body)}`);
        } catch (error) {
          if (!killed) throw error;
        }
        if (acknowledged.length >= BEFORE_KILL && !killed) {
          killed = true;
          first.kill('SIGKILL');
        }
      }
    };
    await Promise.all(Array.from({ length: CLIENTS }, client));
    expect(await first.exited).toMatchObject({ signal: 'SIGKILL' });
    expect(acknowledged.length).toBeGreaterThanOrEqual(BEFORE_KILL);

    // Restart on the same engines; the pipeline finishes what the kill interrupted.
    const second = CliProcess.start(['start'], env);
    await second.waitFor((line) => line.msg === 'ready', 120_000);
    const tenant = { organizationId, environment: 'live' as const };
    const deadline = Date.now() + 60_000;
    for (;;) {
      const check = await setup.openStore();
      const leads = await new LeadRepository(check).findManyById(tenant, acknowledged);
      await check.close();
      if (leads.length === acknowledged.length && leads.every((lead) => lead.status === 'active')) break;
      if (Date.now() > deadline)
        throw new Error(
          `after the restart ${leads.filter((lead) => lead.status === 'active').length} of ${acknowledged.length} acknowledged leads are active`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    // Wait until the activity stage has recorded the last events, then stop cleanly to read the log.
    for (;;) {
      const check = await setup.openStore();
      // lead.validated comes through the activity stage, lead.routed from the route stage: both, for every lead.
      const validated = await check
        .collection('lead_activity')
        .countDocuments({ organization_id: organizationId, event: 'lead.validated' });
      const routed = await check
        .collection('lead_activity')
        .countDocuments({ organization_id: organizationId, event: 'lead.routed' });
      const recorded = Math.min(validated, routed);
      await check.close();
      if (recorded >= acknowledged.length) break;
      if (Date.now() > deadline)
        throw new Error(
          `after the restart ${recorded} of ${acknowledged.length} acknowledged leads have their activity`,
        );
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
    second.kill('SIGTERM');
    expect(await second.exited).toMatchObject({ code: 0 });

    const store2 = await setup.openStore();
    const log = await setup.openLog();
    try {
      const leads = await new LeadRepository(store2).findManyById(tenant, acknowledged);
      expect(new Set(leads.map((lead) => lead._id)).size).toBe(acknowledged.length);
      // No lead stored twice under another id: one lead per email sent.
      const all = await store2
        .collection<{ _id: string; email: string; organization_id: string }>('leads')
        .find({ organization_id: organizationId });
      expect(new Set(all.map((lead) => lead.email.toLowerCase())).size).toBe(all.length);
      const events = (await readTopic(log, TOPICS.events)).flatMap((record) => parseLeadEvents(record.value));
      const activity = new LeadActivityRepository(store2);
      for (const leadId of acknowledged) {
        const mine = events.filter((event) => leadIdOf(event) === leadId);
        const idsByKind = new Map<string, Set<string>>();
        for (const event of mine)
          idsByKind.set(event.event, new Set([...(idsByKind.get(event.event) ?? []), event.id]));
        expect(Object.fromEntries([...idsByKind].map(([kind, ids]) => [kind, ids.size]))).toEqual({
          'lead.created': 1,
          'lead.validated': 1,
          'lead.accepted': 1,
          'lead.routed': 1,
        });
        const entries = await activity.forLead(tenant, leadId);
        expect(entries.map((entry) => entry.event).sort()).toEqual(['lead.created', 'lead.routed', 'lead.validated']);
      }
    } finally {
      await log.close();
      await store2.close();
    }
  }, 300_000);
});
