/**
 * The Helm chart (infra/helm/leadstream) against the code. For each PIPELINE_SPLIT setting, every
 * unit `leadstream worker` can run (resolveStages), and the projector, has a Deployment whose
 * `--stages` selects exactly that unit, and a KEDA ScaledObject on that Deployment whose triggers
 * name the consumer groups and topics the unit really consumes: each unit is started against a
 * recording event log that notes every consumer it makes (the retry delay groups of crm-sync and
 * deliver excepted: their topics hold records waiting for their time, not work to scale on).
 *
 * Renders with `helm template` (infra/helm/check.sh installs helm into GOPATH/bin); skipped when
 * helm is absent, unless REQUIRE_INFRA is set, where its absence fails.
 */
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { homedir, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { openEmbeddedStore, type EmbeddedStore } from '@leadstream/engine-embedded-store';
import type { Consumer, ConsumerOptions, EventLog, ExportFileStore } from '@leadstream/ports';
import { LEAD_EVENTS_TOPIC, PROJECTOR_GROUP } from '@leadstream/projector';
import { CRM_RETRY_STEPS, createLogger, Metrics } from '@leadstream/runtime';
import { INTAKE_STAGE_NAMES, resolveStages, type BatchWriter, type StageFactory } from '@leadstream/worker';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { parseConfig } from './config';

const REPO = resolve(import.meta.dirname, '../../..');
const CHART = join(REPO, 'infra/helm/leadstream');

/** helm on PATH, else where infra/helm/check.sh installs it (GOBIN or GOPATH/bin). */
function findHelm(): string | undefined {
  const candidates = [
    'helm',
    ...[process.env['GOBIN'], process.env['GOPATH'] && join(process.env['GOPATH'], 'bin'), join(homedir(), 'go', 'bin')]
      .filter((dir): dir is string => Boolean(dir))
      .map((dir) => join(dir, 'helm')),
  ];
  for (const candidate of candidates) {
    if (candidate !== 'helm' && !existsSync(candidate)) continue;
    if (spawnSync(candidate, ['version', '--short'], { encoding: 'utf8' }).status === 0) return candidate;
  }
  return undefined;
}

const helm = findHelm();
const requireInfra = Boolean(process.env['REQUIRE_INFRA']);

interface Manifest {
  kind: string;
  metadata: { name: string };
  spec: Record<string, unknown>;
  data?: Record<string, string>;
}

interface Trigger {
  type: string;
  metadata: { bootstrapServers: string; consumerGroup: string; topic: string; lagThreshold: string };
}

function render(values: Record<string, unknown>): Manifest[] {
  if (!helm)
    throw new Error(
      'helm is not installed (REQUIRE_INFRA is set): run `bash infra/helm/check.sh`, which installs it into GOPATH/bin',
    );
  const args = [
    'template',
    'leadstream',
    CHART,
    '--namespace',
    'leads',
    ...Object.entries(values).flatMap(([key, value]) => ['--set-json', `${key}=${JSON.stringify(value)}`]),
  ];
  const result = spawnSync(helm, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`helm template failed: ${result.stderr}`);
  return parseAllDocuments(result.stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null);
}

function containerArgs(deployment: Manifest): string[] {
  const template = deployment.spec['template'] as { spec: { containers: Array<{ args: string[] }> } };
  return template.spec.containers[0]!.args;
}

function containerPorts(deployment: Manifest): Record<string, number> {
  const template = deployment.spec['template'] as {
    spec: { containers: Array<{ ports: Array<{ name: string; containerPort: number }> }> };
  };
  return Object.fromEntries(template.spec.containers[0]!.ports.map((port) => [port.name, port.containerPort]));
}

/** An event log that only notes the consumers made on it (group, topics); nothing is consumed. */
function recordingLog(): EventLog & { consumers: Array<{ group: string; topic: string }> } {
  const consumers: Array<{ group: string; topic: string }> = [];
  return {
    engine: 'kafka',
    consumers,
    ensureTopics: async () => undefined,
    partitionCount: async () => 1,
    produce: async () => [],
    ping: async () => undefined,
    close: async () => undefined,
    consumer(options: ConsumerOptions): Consumer {
      for (const topic of options.topics) consumers.push({ group: options.groupId, topic });
      let state: 'running' | 'stopped' = 'running';
      return {
        start: async () => undefined,
        stop: async () => {
          state = 'stopped';
        },
        assignment: () => [],
        state: () => state,
        done: new Promise<void>(() => undefined),
        lag: async () => [],
      };
    },
  };
}

const unusedWriter: BatchWriter = {
  atomic: false,
  commit: async () => {
    throw new Error('nothing is consumed here');
  },
};

const unusedFiles: ExportFileStore = {
  engine: 'filesystem',
  put: async () => {
    throw new Error('nothing is exported here');
  },
  get: async () => null,
  delete: async () => false,
  close: async () => undefined,
};

let dir: string;
let store: EmbeddedStore;

/** The (group, topic) pairs a unit consumes, less its retry delay groups. */
async function consumedBy(unit: StageFactory): Promise<Array<{ group: string; topic: string }>> {
  const log = recordingLog();
  const runner = unit.create({
    log,
    store,
    writer: unusedWriter,
    isTransient: () => false,
    metrics: new Metrics({ defaultMetrics: false }),
    logger: createLogger({ level: 'silent', role: 'worker' }),
    mx: undefined,
    crm: { credentialsKey: randomBytes(32), retrySchedule: [...CRM_RETRY_STEPS], timeoutMs: 1_000 },
    webhookSecretsKey: randomBytes(32),
    exportFiles: unusedFiles,
  });
  await runner.start();
  const retryGroups = new Set((runner as { retryGroups?: string[] }).retryGroups ?? []);
  await runner.stop();
  return log.consumers.filter((consumer) => !retryGroups.has(consumer.group));
}

const pairs = (list: Array<{ group: string; topic: string }>): string[] =>
  [...new Set(list.map(({ group, topic }) => `${group} <- ${topic}`))].sort();

describe.skipIf(!helm && !requireInfra)(
  'the Helm chart runs every unit of the code, scaled on its own consumer groups',
  () => {
    beforeAll(async () => {
      dir = mkdtempSync(join(tmpdir(), 'helm-chart-'));
      store = await openEmbeddedStore({ dataDir: join(dir, 'store') });
    });
    afterAll(async () => {
      await store?.close();
      if (dir) rmSync(dir, { recursive: true, force: true });
    });

    const settings: Array<{ name: string; split: string[]; prefix: string; partitions: number }> = [
      { name: 'the default chain', split: [], prefix: '', partitions: 6 },
      { name: 'PIPELINE_SPLIT=enrich under a topic prefix', split: ['enrich'], prefix: 'prod.', partitions: 12 },
      { name: 'PIPELINE_SPLIT=all', split: ['all'], prefix: '', partitions: 3 },
    ];

    it.each(settings)('$name', async ({ split, prefix, partitions }) => {
      const manifests = render({ pipelineSplit: split, 'kafka.topicPrefix': prefix, partitions });
      const config = manifests.find((manifest) => manifest.kind === 'ConfigMap')!;
      expect(config.data).toMatchObject({
        PIPELINE_SPLIT: split.length > 0 ? split.join(',') : 'none',
        TOPIC_PARTITIONS: String(partitions),
        TOPIC_PREFIX: prefix,
      });
      // The ConfigMap (with the two keys of the referenced Secret) is a configuration the code accepts, with these settings.
      const parsed = parseConfig({
        ...config.data,
        JWT_SECRET: 'j'.repeat(32),
        CRM_CREDENTIALS_KEY: randomBytes(32).toString('base64'),
      });
      expect({
        split: parsed.pipelineSplit,
        partitions: parsed.topicPartitions,
        prefix: parsed.topicPrefix,
        kafka: parsed.kafka !== undefined,
        mongodb: parsed.mongodb !== undefined,
      }).toEqual({ split, partitions, prefix, kafka: true, mongodb: true });

      const deployments = manifests.filter((manifest) => manifest.kind === 'Deployment');
      const scaledObjects = manifests.filter((manifest) => manifest.kind === 'ScaledObject');
      const units = resolveStages(undefined, split);
      // Sanity: the split changes the units (one chain by default, each intake stage alone with "all").
      expect(units.filter((unit) => unit.members).length).toBe(
        split.length === 0 ? 1 : split.includes('all') ? INTAKE_STAGE_NAMES.length : 2,
      );

      const expected: Array<{ label: string; args: string[]; consumes: Array<{ group: string; topic: string }> }> = [];
      for (const unit of units)
        expected.push({ label: unit.name, args: ['worker', '--stages', unit.name], consumes: await consumedBy(unit) });
      expected.push({
        label: 'projector',
        args: ['projector'],
        consumes: [{ group: PROJECTOR_GROUP, topic: LEAD_EVENTS_TOPIC }],
      });

      for (const { label, args, consumes } of expected) {
        const deployment = deployments.find(
          (candidate) => JSON.stringify(containerArgs(candidate)) === JSON.stringify(args),
        );
        expect(deployment, `a Deployment running ${args.join(' ')} (${label})`).toBeDefined();
        // Its probes reach the ops endpoints where the process serves them (OPS_PORT).
        expect(containerPorts(deployment!)).toEqual({ ops: parsed.opsPort });
        if (args[0] === 'worker') {
          // What the CLI runs for those --stages under this split is exactly this unit.
          expect(resolveStages(args[2]!.split(','), split).map((unit) => unit.name)).toEqual([label]);
        }
        const scaled = scaledObjects.find(
          (candidate) => (candidate.spec['scaleTargetRef'] as { name: string }).name === deployment!.metadata.name,
        );
        expect(scaled, `a ScaledObject on ${deployment!.metadata.name}`).toBeDefined();
        expect(scaled!.spec['maxReplicaCount']).toBe(partitions);
        const triggers = scaled!.spec['triggers'] as Trigger[];
        expect(
          triggers.every(
            (trigger) =>
              trigger.type === 'kafka' &&
              trigger.metadata.bootstrapServers !== '' &&
              Number(trigger.metadata.lagThreshold) > 0,
          ),
        ).toBe(true);
        expect(
          pairs(triggers.map((trigger) => ({ group: trigger.metadata.consumerGroup, topic: trigger.metadata.topic }))),
          label,
        ).toEqual(pairs(consumes.map(({ group, topic }) => ({ group: prefix + group, topic: prefix + topic }))));
      }
      // Nothing else consumes: the api Deployment, and one per unit and the projector.
      expect(deployments.map((deployment) => containerArgs(deployment).join(' ')).sort()).toEqual(
        ['api', ...expected.map(({ args }) => args.join(' '))].sort(),
      );
      expect(scaledObjects).toHaveLength(expected.length);
    });

    it('gives every pod a grace period longer than the shutdown drain, and probes on /healthz and /readyz', () => {
      const manifests = render({ 'shutdown.timeoutMs': 45_500 });
      const config = manifests.find((manifest) => manifest.kind === 'ConfigMap')!;
      const { shutdownTimeoutMs, port } = parseConfig({ ...config.data, JWT_SECRET: 'j'.repeat(32) });
      expect(shutdownTimeoutMs).toBe(45_500);
      const workloads = manifests.filter((manifest) => manifest.kind === 'Deployment' || manifest.kind === 'Job');
      expect(workloads.length).toBeGreaterThan(2);
      for (const workload of workloads) {
        const pod = (
          workload.spec['template'] as {
            spec: {
              terminationGracePeriodSeconds: number;
              containers: Array<Record<string, { httpGet?: { path: string; port: string } }>>;
            };
          }
        ).spec;
        expect(pod.terminationGracePeriodSeconds * 1000, workload.metadata.name).toBeGreaterThan(shutdownTimeoutMs);
        if (workload.kind === 'Deployment') {
          expect(pod.containers[0]!['livenessProbe']!.httpGet!.path).toBe('/healthz');
          expect(pod.containers[0]!['readinessProbe']!.httpGet!.path).toBe('/readyz');
        }
      }
      const api = manifests.find((manifest) => manifest.kind === 'Deployment' && containerArgs(manifest)[0] === 'api')!;
      expect(containerPorts(api)).toEqual({ http: port });
    });

    it('keeps secrets out of the values: only a reference to an existing Secret unless generation is asked for', () => {
      const referenced = render({});
      expect(referenced.filter((manifest) => manifest.kind === 'Secret')).toEqual([]);
      const api = referenced.find(
        (manifest) => manifest.kind === 'Deployment' && manifest.metadata.name.endsWith('-api'),
      )!;
      expect(JSON.stringify(api.spec['template'])).toContain('"secretRef":{"name":"leadstream-secrets"}');

      const generated = render({ 'secrets.generate': true }).filter((manifest) => manifest.kind === 'Secret');
      expect(generated).toHaveLength(1);
      const data = generated[0]!.data!;
      expect(Buffer.from(Buffer.from(data['CRM_CREDENTIALS_KEY']!, 'base64').toString('utf8'), 'base64')).toHaveLength(
        32,
      );
      expect(Buffer.from(data['JWT_SECRET']!, 'base64').toString('utf8').length).toBeGreaterThanOrEqual(32);
    });

    it('refuses a PIPELINE_SPLIT the code refuses', () => {
      expect(() => render({ pipelineSplit: ['validate'] })).toThrow(/not an intake stage after the first/);
    });
  },
);
