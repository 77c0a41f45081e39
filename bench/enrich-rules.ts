/**
 * Leads per second through the real enrich stage (consumer batches of 500, BatchStageHandler,
 * AtomicBatchWriter on the embedded engines) with 0, 10 and 100 enabled enrichment rules and
 * three calculated fields. The ratio to 0 rules, measured in the same run, is the figure.
 * Target: 100 rules cost at most 3x no rules, i.e. leads/s(100) / leads/s(0) >= 0.33.
 *
 *   npx tsx bench/enrich-rules.ts [--leads 5000] [--runs 3]
 *
 * The rules are a realistic mix: every condition is evaluated for every lead (nested AND/OR
 * groups, string, number and regex operators), about one rule in ten matches a given lead, and
 * matching rules set fields, transform, look up a table and calculate a formula.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import {
  CalculatedFieldRepository,
  EnrichmentConfigReader,
  EnrichmentRuleRepository,
  LEADS_COLLECTION,
  LookupTableRepository,
} from '@leadstream/dal';
import { advanceLead, startLead, type EnrichmentRuleSettings, type LeadRecord } from '@leadstream/domain';
import { EmbeddedLog } from '@leadstream/engine-embedded-log';
import { openEmbeddedStore } from '@leadstream/engine-embedded-store';
import type { LogRecord } from '@leadstream/ports';
import { Metrics } from '@leadstream/runtime';
import { AtomicBatchWriter, BatchStageHandler, enrichStage, uncachedConfig } from '@leadstream/worker';
import { pino } from 'pino';
import { option, runBenchmark } from './support/service';

const LEADS = option('leads', 5000);
const RUNS = option('runs', 3);
const BATCH = 500;
const ORG = 'org_bench';
const STATES = ['CA', 'NY', 'TX', 'FL', 'IL', 'PA', 'OH', 'GA', 'NC', 'MI'];
const PROGRAMS = ['MBA', 'BSN', 'MSCS', 'BA History', 'MEd'];

function lead(i: number, at: string): LeadRecord {
  const actor = advanceLead(
    advanceLead(startLead(`lead_${i}`), { type: 'VALIDATION_PASSED', flags: [], warnings: [] }),
    { type: 'UNIQUE' },
  );
  return {
    _id: `lead_${i}`,
    organization_id: ORG,
    environment: 'live',
    vendor_id: 'vendor_1',
    status: 'new',
    email: `ann.lee${i}@example.edu`,
    first_name: 'ann',
    last_name: `lee${i}`,
    phone: '+14155550100',
    source: i % 3 === 0 ? 'google' : 'fair',
    program: PROGRAMS[i % PROGRAMS.length]!,
    program_interest: null,
    ip_address: null,
    user_agent: null,
    landing_page: null,
    referrer: null,
    utm_source: i % 2 ? 'google' : 'facebook',
    utm_medium: 'cpc',
    utm_campaign: `spring-${i % 7}`,
    utm_term: null,
    utm_content: null,
    custom_fields: { zip: String(90_000 + (i % 1000)), gpa: 2 + (i % 20) / 10 },
    enrichment_data: {},
    validation_status: 'passed',
    enrichment_status: 'pending',
    duplicate_of: null,
    similarity_score: null,
    crm_sync_status: 'pending',
    crm_id: null,
    crm_synced_at: null,
    flags: [],
    warnings: [],
    rejection_reason: null,
    rule_id: null,
    dedup_key: `ann.lee${i}@example.edu`,
    bk_email: `ann.lee${i}@example.edu`,
    bk_phone: '14155550100',
    bk_name: null,
    dedup_status: 'unique',
    submitted_at: at,
    processed_at: null,
    created_at: at,
    updated_at: at,
    deleted_at: null,
    expires_at: null,
    actor,
    version: 3,
    applied_messages: [],
    outbox: [],
  };
}

/** Rule k of a set: ten shapes, each matching roughly one lead in ten. */
function rule(k: number): EnrichmentRuleSettings {
  const shape = k % 10;
  const conditions = [
    {
      operator: 'AND',
      rules: [
        { field: 'custom_fields.gpa', operator: 'greater_than_or_equal', value: 3.8 },
        { field: 'program', operator: 'equals', value: PROGRAMS[k % 5] },
      ],
    },
    {
      operator: 'OR',
      rules: [
        { field: 'utm_campaign', operator: 'equals', value: `spring-${k % 7}x` },
        { field: 'custom_fields.zip', operator: 'starts_with', value: `9000${k % 10}` },
      ],
    },
    {
      operator: 'AND',
      rules: [
        { field: 'email', operator: 'matches_regex', value: `^ann\\.lee\\d*${k % 10}@` },
        { field: 'source', operator: 'in', value: ['google', 'fair'] },
      ],
    },
    {
      operator: 'AND',
      rules: [
        { field: 'utm_source', operator: 'equals', value: 'google' },
        {
          operator: 'OR',
          rules: [
            { field: 'custom_fields.gpa', operator: 'less_than', value: 2.2 },
            { field: 'last_name', operator: 'ends_with', value: `${k % 10}7` },
          ],
        },
      ],
    },
    { operator: 'AND', rules: [{ field: 'first_name', operator: 'contains', value: 'zz' }] },
  ][shape % 5]!;
  const actions = [
    [{ type: 'set_field', field: `enrichment_data.segment_${k}`, value: 'A' }],
    [{ type: 'transform', field: 'first_name', transformation: 'titlecase' }],
    [
      {
        type: 'lookup',
        target_field: 'enrichment_data.state',
        table_name: 'zip_states',
        lookup_field: 'custom_fields.zip',
      },
    ],
    [
      {
        type: 'calculate',
        field: `enrichment_data.label_${k}`,
        formula: '{{first_name | capitalize}} {{last_name | upcase}}',
      },
    ],
    [{ type: 'flag', reason: `review ${k}`, severity: 'low' }],
  ][shape % 5]!;
  return {
    name: `Rule ${k}`,
    description: null,
    priority: k,
    enabled: true,
    conditions,
    actions,
  } as unknown as EnrichmentRuleSettings;
}

async function measure(rules: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-enrich-'));
  const store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
  const log = EmbeddedLog.open({ dataDir: join(dir, 'log'), shared: store });
  try {
    await log.ensureTopics(
      ['leads.unique', 'leads.enriched', 'leads.decisions', 'leads.events', 'rules.webhooks', 'leads.unique.dlq'].map(
        (topic) => ({ topic, partitions: 1 }),
      ),
    );
    const at = new Date().toISOString();
    const leads = store.collection<LeadRecord>(LEADS_COLLECTION);
    for (let i = 0; i < LEADS; i += 1000)
      await leads.insertMany(Array.from({ length: Math.min(1000, LEADS - i) }, (_, j) => lead(i + j, at)));
    const zips: Record<string, string> = {};
    for (let z = 0; z < 1000; z++) zips[String(90_000 + z)] = STATES[z % STATES.length]!;
    await new LookupTableRepository(store).create(
      ORG,
      'lkp_1',
      { name: 'zip_states', description: null, mappings: zips },
      at,
    );
    const calculated = new CalculatedFieldRepository(store);
    await calculated.create(
      ORG,
      'calc_1',
      {
        name: 'full_name',
        label: 'Full name',
        formula: '{{first_name}} {{last_name}}',
        type: 'text',
        recalculate_on_change: false,
      },
      at,
    );
    await calculated.create(
      ORG,
      'calc_2',
      {
        name: 'honors',
        label: 'Honors',
        formula: '{{if custom_fields.gpa >= 3.5}}yes{{else}}no{{/if}}',
        type: 'text',
        recalculate_on_change: false,
      },
      at,
    );
    await calculated.create(
      ORG,
      'calc_3',
      {
        name: 'state_code',
        label: 'State',
        formula: '{{lookup "zip_states" custom_fields.zip | default: "??"}}',
        type: 'text',
        recalculate_on_change: false,
      },
      at,
    );
    const repository = new EnrichmentRuleRepository(store);
    for (let k = 0; k < rules; k++) await repository.create(ORG, `rule_${k}`, rule(k), at);

    const records: LogRecord[] = Array.from({ length: LEADS }, (_, i) => ({
      topic: 'leads.unique',
      partition: 0,
      offset: String(i),
      key: `lead_${i}`,
      headers: {},
      timestamp: Date.now(),
      value: JSON.stringify({
        schema_version: 1,
        message_id: `m${i}`,
        correlation_id: `c${i}`,
        lead_id: `lead_${i}`,
        organization_id: ORG,
        environment: 'live',
        vendor_id: 'vendor_1',
        submitted_at: at,
      }),
    }));
    // Configuration is read once per batch through the ConfigCache in production; here uncached (a read per batch).
    const stage = enrichStage({
      leads: {
        findManyById: (tenant, ids) =>
          store
            .collection<LeadRecord>(LEADS_COLLECTION)
            .find({ _id: { $in: [...ids] }, organization_id: tenant.organizationId }),
      },
      enrichment: new EnrichmentConfigReader(store),
      config: uncachedConfig,
    });
    const handler = new BatchStageHandler(stage, {
      writer: new AtomicBatchWriter({ store, log, topicPrefix: '' }),
      logger: pino({ level: 'silent' }),
      metrics: new Metrics({ defaultMetrics: false }),
      isTransient: () => false,
    });
    const started = performance.now();
    for (let i = 0; i < LEADS; i += BATCH)
      await handler.handle({ topic: 'leads.unique', partition: 0, records: records.slice(i, i + BATCH) });
    const seconds = (performance.now() - started) / 1000;
    const enriched = await leads.countDocuments({ organization_id: ORG, enrichment_status: 'completed' });
    if (enriched !== LEADS) throw new Error(`only ${enriched} of ${LEADS} leads were enriched`);
    return LEADS / seconds;
  } finally {
    await log.close();
    await store.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

runBenchmark(async () => {
  const results = new Map<number, number[]>();
  for (let run = 0; run < RUNS; run++) {
    for (const rules of [0, 10, 100]) results.set(rules, [...(results.get(rules) ?? []), await measure(rules)]);
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const base = median(results.get(0)!);
  console.log(`enrich stage, ${LEADS} leads in batches of ${BATCH}, embedded engines, median of ${RUNS} runs`);
  for (const [rules, values] of results) {
    const rate = median(values);
    console.log(
      `  ${String(rules).padStart(3)} rules: ${rate.toFixed(0).padStart(6)} leads/s   ${(rate / base).toFixed(2)} x no rules   (cost ${(base / rate).toFixed(2)} x)`,
    );
  }
  const cost = base / median(results.get(100)!);
  console.log(`target: 100 rules cost <= 3x no rules: ${cost <= 3 ? 'met' : 'missed'} (${cost.toFixed(2)}x)`);
});
