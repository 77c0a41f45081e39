/**
 * The reprocess stage with fakes of its store and writer: what it decides per lead
 * (`reprocessLead`), what a real run commits, and how it meets a lead written meanwhile, a cancel
 * and a lead waiting for review. End to end on both engine sets: reprocess.integration.spec.ts.
 */
import type { ReprocessJob, RoutingConfig } from '@leadstream/dal';
import { DEFAULT_ROUTING_SETTINGS, type LeadRecord, type RoutingRule, type TenantContext } from '@leadstream/domain';
import type { LogRecord } from '@leadstream/ports';
import { describe, expect, it } from 'vitest';
import { WriteConflictError, type BatchWrite, type BatchWriter } from '../batch/batch-write';
import { reprocessLead, reprocessPauseMs, reprocessStage } from './reprocess.stage';

const AT = new Date('2026-11-27T12:00:00.000Z');

const rule = (id: string, connection: string, program: string): RoutingRule => ({
  id,
  name: id,
  description: null,
  priority: 1,
  enabled: true,
  conditions: { operator: 'AND', rules: [{ field: 'program', operator: 'equals', value: program }] },
  targets: [{ connection_id: connection, owner: null, queue: null, weight: null }],
  distribution: 'single',
  created_at: '2026-01-01T00:00:00.000Z',
  updated_at: '2026-01-01T00:00:00.000Z',
});

const routing = (rules: RoutingRule[]): RoutingConfig => ({
  rules,
  settings: { ...DEFAULT_ROUTING_SETTINGS, when_unmatched: 'none' },
});

function lead(id: string, fields: Partial<LeadRecord> = {}): LeadRecord {
  return {
    _id: id,
    organization_id: 'org_1',
    environment: 'live',
    email: `${id}@example.edu`,
    status: 'active',
    program: 'nursing',
    vendor_id: 'vnd_1',
    custom_fields: {},
    enrichment_data: {},
    created_at: '2026-11-01T00:00:00.000Z',
    updated_at: '2026-11-01T00:00:00.000Z',
    version: 3,
    applied_messages: [],
    outbox: [],
    routing: {
      rule_id: 'rr_old',
      reason: 'rule',
      targets: [{ connection_id: 'crm_a', owner: null, queue: null }],
      position: null,
      routed_at: '2026-11-01T00:00:01.000Z',
    },
    ...fields,
  } as unknown as LeadRecord;
}

/** A lead no rule takes, routed nowhere before and now. */
const unrouted = (id: string): LeadRecord =>
  lead(id, {
    program: 'law',
    routing: { rule_id: null, reason: 'none', targets: [], position: null, routed_at: '2026-11-01T00:00:01.000Z' },
  });

describe('reprocessPauseMs', () => {
  it('rests so that the job keeps the store busy for its share of the time only', () => {
    // 20 %: a batch of 50 ms is followed by 200 ms of rest (50 / (50 + 200) = 0.2).
    expect(reprocessPauseMs(50, 0.2)).toBe(200);
    expect(reprocessPauseMs(30, 0.5)).toBe(30);
    expect(reprocessPauseMs(80, 1)).toBe(0);
  });

  it('never rests less than the configured least pause, nor a negative time', () => {
    expect(reprocessPauseMs(10, 0.2, 500)).toBe(500);
    expect(reprocessPauseMs(-5, 0.2)).toBe(0);
  });
});

describe('reprocessLead', () => {
  const context = {
    stages: ['route', 'crm-sync'],
    enrichment: null,
    routing: routing([rule('rr_new', 'crm_b', 'nursing')]),
    connections: [],
  };

  it('finds a changed target, with the old and new route', () => {
    const decision = reprocessLead(lead('lead_a'), context, AT);
    expect(decision?.targetChanged).toBe(true);
    expect(decision?.changes).toEqual({
      routing: {
        old: { rule_id: 'rr_old', reason: 'rule', targets: [{ connection_id: 'crm_a', owner: null, queue: null }] },
        new: { rule_id: 'rr_new', reason: 'rule', targets: [{ connection_id: 'crm_b', owner: null, queue: null }] },
      },
    });
    expect(decision?.next.routing).toMatchObject({ rule_id: 'rr_new', routed_at: AT.toISOString() });
  });

  it('tells a new rule with the same target from a new target', () => {
    const same = reprocessLead(
      lead('lead_a'),
      { ...context, routing: routing([rule('rr_new', 'crm_a', 'nursing')]) },
      AT,
    );
    expect(same?.changes['routing']).toBeDefined();
    expect(same?.targetChanged).toBe(false);
  });

  it('finds nothing where the rules decide as before, and leaves rejected leads and leads held for review', () => {
    const unchanged = { ...context, routing: routing([rule('rr_old', 'crm_a', 'nursing')]) };
    expect(reprocessLead(lead('lead_a'), unchanged, AT)).toBeNull();
    expect(reprocessLead(lead('lead_b', { status: 'rejected' }), context, AT)).toBeNull();
    expect(reprocessLead(lead('lead_c', { review_status: 'pending' }), context, AT)).toBeNull();
  });
});

/** A clock the test moves by hand; a rest is recorded and moves it by its length. */
function manualClock() {
  let now = 0;
  const rests: number[] = [];
  return {
    rests,
    advance: (ms: number) => void (now += ms),
    clock: () => now,
    rest: (ms: number) => {
      rests.push(ms);
      now += ms;
      return Promise.resolve();
    },
  };
}

describe('the reprocess stage', () => {
  const tenant: TenantContext = { organizationId: 'org_1', environment: 'live' };

  function harness(
    stored: LeadRecord[],
    options: {
      dryRun?: boolean;
      conflictOnce?: LeadRecord[];
      /** Called before each stored lead is read (a clock can advance there). */
      onRead?: () => void;
      /** Called for each step of counting the leads (steps of 2 here). */
      onCountStep?: (job: ReprocessJob) => void;
      clock?: () => number;
      rest?: (ms: number) => Promise<void>;
    } = {},
  ) {
    const job: ReprocessJob = {
      _id: 'reproc_1',
      organization_id: 'org_1',
      environment: 'live',
      user_id: 'usr_1',
      filter: {},
      stages: ['route', 'crm-sync'],
      dry_run: options.dryRun ?? false,
      status: 'queued',
      total: null,
      done: 0,
      changed: 0,
      failed: 0,
      field_counts: {},
      sample: [],
      crm_syncs: 0,
      cancel_requested: false,
      error: null,
      created_at: AT.toISOString(),
      started_at: null,
      completed_at: null,
    };
    const commits: BatchWrite[] = [];
    let conflict = options.conflictOnce;
    const writer: BatchWriter = {
      atomic: true,
      commit(write) {
        if (conflict) {
          const ids = write.leads.map((entry) => entry.lead._id);
          conflict = undefined;
          return Promise.reject(new WriteConflictError(ids));
        }
        commits.push(write);
        return Promise.resolve();
      },
    };
    const rereads: string[][] = [];
    const stage = reprocessStage({
      jobs: {
        find: (_tenant, id) => Promise.resolve(id === job._id ? { ...job } : null),
        progress: (_job, set) => {
          Object.assign(job, set);
          return Promise.resolve();
        },
        async *countLeadsInSteps(_tenant, _filter, step) {
          for (let counted = 0; counted < stored.length;) {
            options.onCountStep?.(job);
            counted = Math.min(stored.length, counted + step);
            yield counted;
          }
        },
        async *leadsOf() {
          for (const one of stored) {
            options.onRead?.();
            yield one;
          }
        },
        reread: (_tenant, ids) => {
          rereads.push(ids);
          return Promise.resolve((options.conflictOnce ?? stored).filter((one) => ids.includes(one._id)));
        },
      },
      enrichment: { read: () => Promise.reject(new Error('not asked for')) },
      routing: {
        read: () => Promise.resolve(routing([rule('rr_new', 'crm_b', 'nursing')])),
        enabledConnectionIds: () => Promise.resolve([]),
      },
      counters: { reserve: () => Promise.resolve(0) },
      writer,
      now: () => AT,
      batchSize: 2,
      countStep: 2,
      ...(options.clock ? { clock: options.clock } : {}),
      ...(options.rest ? { rest: options.rest } : {}),
    });
    const record: LogRecord = {
      topic: 'reprocess.requests',
      partition: 0,
      offset: '7',
      key: job._id,
      value: JSON.stringify({ schema_version: 1, job_id: job._id, organization_id: 'org_1', environment: 'live' }),
      headers: {},
      timestamp: AT.getTime(),
    };
    return { job, commits, rereads, run: () => stage.process([record]), tenant };
  }

  it('counts reading a batch in its busy time: it rests for its share of reading, deciding and writing', async () => {
    // Reading each lead takes 50 ms on this clock, deciding and writing none: a batch of 2 is 100 ms
    // busy, so at the default share of 10 % the job rests 900 ms after it (counting takes no time here).
    const time = manualClock();
    const { job, run } = harness([lead('lead_1'), lead('lead_2'), lead('lead_3'), lead('lead_4')], {
      onRead: () => time.advance(50),
      clock: time.clock,
      rest: time.rest,
    });
    await run();
    expect(job.status).toBe('completed');
    expect(time.rests).toEqual([0, 0, 900, 900]);
  });

  it('counts the leads in steps before the first batch, resting after each for its share of the time', async () => {
    // Each step of the count takes 30 ms on this clock, reading and deciding none: at 10 % the job
    // rests 270 ms after each of the two steps, so counting a large job never holds the pipeline long.
    const time = manualClock();
    const { job, commits, run } = harness([lead('lead_1'), lead('lead_2'), lead('lead_3'), lead('lead_4')], {
      onCountStep: () => time.advance(30),
      clock: time.clock,
      rest: time.rest,
    });
    await run();
    expect(job).toMatchObject({ status: 'completed', total: 4, done: 4 });
    expect(time.rests).toEqual([270, 270, 0, 0]);
    expect(commits).toHaveLength(2);
  });

  it('stops while counting when the job is cancelled, before reading a lead', async () => {
    let reads = 0;
    const { job, commits, run } = harness([lead('lead_1'), lead('lead_2'), lead('lead_3'), lead('lead_4')], {
      onCountStep: (current) => (current.cancel_requested = true),
      onRead: () => reads++,
    });
    await run();
    expect(job).toMatchObject({ status: 'cancelled', done: 0 });
    expect(reads).toBe(0);
    expect(commits).toHaveLength(0);
  });

  it('commits only the changed leads, each with lead.updated, its activity entry and a CRM sync, in batches', async () => {
    const leads = [lead('lead_1'), unrouted('lead_2'), lead('lead_3')];
    const { job, commits, run } = harness(leads);
    const result = await run();
    expect(result.handled).toBe(1);
    expect(job).toMatchObject({ status: 'completed', total: 3, done: 3, changed: 2, failed: 0, crm_syncs: 2 });
    expect(job.field_counts).toEqual({ routing: 2 });
    // Batches of two: lead_1 in the first, lead_3 in the second; lead_2 (no rule takes it, as before) is unchanged.
    expect(commits.map((write) => write.leads.map((entry) => entry.lead._id))).toEqual([['lead_1'], ['lead_3']]);
    const [first] = commits[0]!.leads;
    expect(first!.previous?.version).toBe(3);
    expect(first!.lead.version).toBe(4);
    expect(first!.outputs.map((output) => output.topic)).toEqual(['leads.events', 'leads.routed']);
    expect(JSON.parse(first!.outputs[0]!.value)).toMatchObject({
      event: 'lead.updated',
      data: { lead: { id: 'lead_1' }, changes: { routing: { new: { targets: [{ connection_id: 'crm_b' }] } } } },
    });
    expect(JSON.parse(first!.outputs[1]!.value)).toMatchObject({
      message_id: 'reproc_1:lead_1>route',
      route: { rule_id: 'rr_new', targets: [{ connection_id: 'crm_b' }] },
    });
    const activity = commits[0]!.documents.find((writes) => writes.collection === 'lead_activity');
    expect(JSON.stringify(activity?.operations)).toContain('lead.reprocessed');
  });

  it('a dry run commits nothing and counts as the real run does, with a sample of the differences', async () => {
    const leads = [lead('lead_1'), unrouted('lead_2'), lead('lead_3')];
    const dry = harness(leads, { dryRun: true });
    await dry.run();
    const real = harness(leads);
    await real.run();
    expect(dry.commits).toEqual([]);
    expect(dry.job).toMatchObject({ status: 'completed', changed: real.job.changed, crm_syncs: real.job.crm_syncs });
    expect(dry.job.field_counts).toEqual(real.job.field_counts);
    expect(dry.job.sample.map((difference) => `${difference.lead_id} ${difference.field}`)).toEqual([
      'lead_1 routing',
      'lead_3 routing',
    ]);
  });

  it('decides a batch again on the stored leads after a write conflict', async () => {
    // Meanwhile someone routed lead_1 to crm_b already: nothing is left to change on it.
    const fresh = [
      lead('lead_1', {
        version: 4,
        routing: {
          rule_id: 'rr_new',
          reason: 'rule',
          targets: [{ connection_id: 'crm_b', owner: null, queue: null }],
          position: null,
          routed_at: AT.toISOString(),
        },
      }),
    ];
    const { job, commits, rereads, run } = harness([lead('lead_1')], { conflictOnce: fresh });
    await run();
    expect(rereads).toEqual([['lead_1']]);
    expect(commits).toEqual([]);
    expect(job).toMatchObject({ status: 'completed', done: 1, changed: 0, failed: 0 });
  });

  it('stops after the batch in progress once cancelled', async () => {
    const leads = [lead('lead_1'), lead('lead_2'), lead('lead_3'), lead('lead_4')];
    const harnessed = harness(leads);
    harnessed.job.cancel_requested = false;
    // Cancelled while the first batch is written.
    const original = harnessed.commits.push.bind(harnessed.commits);
    harnessed.commits.push = (...writes: BatchWrite[]) => {
      harnessed.job.cancel_requested = true;
      return original(...writes);
    };
    await harnessed.run();
    expect(harnessed.job).toMatchObject({ status: 'cancelled', done: 2, changed: 2 });
    expect(harnessed.commits).toHaveLength(1);
  });
});
