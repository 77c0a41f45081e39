/**
 * infra/prometheus/alerts.yml and infra/grafana/leadstream.json use only metrics the processes
 * register (libs/runtime/src/metrics.ts, with prom-client's default metrics under `leadstream_`),
 * with label names those metrics have: a renamed metric or label fails here instead of leaving an
 * alert that never fires or a panel that stays empty.
 */
import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { Metrics } from '@leadstream/runtime';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';

const REPO = resolve(import.meta.dirname, '../../..');

interface Registered {
  /** Every series name the metric shows on /metrics (a histogram's _bucket, _count, _sum). */
  series: Map<string, string>;
  labels: Map<string, Set<string>>;
}

async function registered(): Promise<Registered> {
  const metrics = new Metrics();
  const series = new Map<string, string>();
  const labels = new Map<string, Set<string>>();
  for (const metric of await metrics.registry.getMetricsAsJSON()) {
    const type = String(metric.type);
    const names =
      type === 'histogram'
        ? ['_bucket', '_count', '_sum'].map((suffix) => metric.name + suffix)
        : type === 'summary'
          ? ['', '_count', '_sum'].map((suffix) => metric.name + suffix)
          : [metric.name];
    const own = new Set<string>(
      (
        (metrics.registry.getSingleMetric(metric.name) as unknown as { labelNames?: readonly string[] }).labelNames ??
        []
      ).map(String),
    );
    if (type === 'histogram') own.add('le');
    if (type === 'summary') own.add('quantile');
    for (const name of names) {
      series.set(name, metric.name);
      labels.set(name, own);
    }
  }
  return { series, labels };
}

/** The metric names an expression uses, each with the label names its selector matches on. */
function selectors(expr: string): Array<{ metric: string; labels: string[] }> {
  const found: Array<{ metric: string; labels: string[] }> = [];
  for (const match of expr.matchAll(/\b(leadstream_[a-z0-9_]+)(\{([^}]*)\})?/g)) {
    const matchers = match[3] ?? '';
    found.push({
      metric: match[1]!,
      labels: [...matchers.matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)\s*(=~|!~|!=|=)/g)].map((label) => label[1]!),
    });
  }
  return found;
}

function alertExpressions(): string[] {
  const rules = parse(readFileSync(join(REPO, 'infra/prometheus/alerts.yml'), 'utf8')) as {
    groups: Array<{ rules: Array<{ alert: string; expr: string }> }>;
  };
  return rules.groups.flatMap((group) => group.rules.map((rule) => rule.expr));
}

function dashboardExpressions(): string[] {
  const dashboard = JSON.parse(readFileSync(join(REPO, 'infra/grafana/leadstream.json'), 'utf8')) as {
    panels: Array<{ type: string; targets?: Array<{ expr: string }> }>;
  };
  return dashboard.panels.flatMap((panel) => (panel.targets ?? []).map((target) => target.expr));
}

describe('alerts and dashboard metrics', () => {
  it.each([
    ['infra/prometheus/alerts.yml', alertExpressions],
    ['infra/grafana/leadstream.json', dashboardExpressions],
  ] as const)('%s uses only registered metrics and their labels', async (_file, expressions) => {
    const { series, labels } = await registered();
    const used = expressions().flatMap(selectors);
    expect(used.length).toBeGreaterThan(5);
    const unknown = used.filter(({ metric }) => !series.has(metric)).map(({ metric }) => metric);
    expect(unknown).toEqual([]);
    const wrongLabels = used.flatMap(({ metric, labels: names }) =>
      names.filter((name) => !labels.get(metric)!.has(name)).map((name) => `${metric}{${name}}`),
    );
    expect(wrongLabels).toEqual([]);
  });

  it('the check itself sees an unknown metric and an unknown label', async () => {
    const { series, labels } = await registered();
    const [made, relabelled] = selectors(
      'sum(rate(leadstream_webhooks_never_registered_total[5m])) + sum by (group) (leadstream_messages_produced_total{group="deliver"})',
    );
    expect(series.has(made!.metric)).toBe(false);
    expect(labels.get(relabelled!.metric)!.has('group')).toBe(false);
    expect(labels.get('leadstream_messages_produced_total')!.has('topic')).toBe(true);
    expect(series.get('leadstream_http_request_duration_seconds_bucket')).toBe(
      'leadstream_http_request_duration_seconds',
    );
  });

  it('covers what the brief asks for: lag, dead letters, deadline misses, webhook failures, degraded readiness', () => {
    const alerts = alertExpressions().join('\n');
    for (const metric of [
      'leadstream_consumer_lag',
      'leadstream_messages_dead_lettered_total',
      'leadstream_http_request_duration_seconds_count',
      'leadstream_partition_stuck_seconds',
    ]) {
      expect(alerts).toContain(metric);
    }
    expect(alerts).toMatch(/status="202"/);
    expect(alerts).toMatch(/webhooks\\\\\.retry/);
    const dashboard = dashboardExpressions().join('\n');
    for (const metric of [
      'leadstream_messages_produced_total{topic="leads.submitted"}',
      'leadstream_consumer_lag',
      'leadstream_messages_dead_lettered_total',
      'crm\\\\.retry',
    ]) {
      expect(dashboard).toContain(metric);
    }
  });
});
