/**
 * Reports (the general analytics of docs/analytics.md) for a date range: this period against the
 * previous one, the lead volume trend, the conversion funnel from submission to conversion,
 * performance by source (or UTM field, program, vendor), each vendor's cost against its
 * conversions, and why leads were rejected.
 */
import { useState } from 'react';
import { Bar, BarChart, CartesianGrid, Legend, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import type { Schemas } from '@leadstream/client';
import { api, call } from '../api/client';
import { DateRangeForm, percent, Tile, useDateRange } from '../components/date-range';
import { DataTable } from '../components/list';
import { useLoad } from '../components/use-load';
import { Alert, Loading, PageHeader, Select, formatMoney } from '../components/ui';

type GroupBy = Schemas['SourcePerformance']['groupBy'];
type Interval = Schemas['LeadVolumeTrend']['interval'];

const GROUPS: ReadonlyArray<readonly [GroupBy, string]> = [
  ['source', 'Source'],
  ['utm_source', 'UTM source'],
  ['utm_medium', 'UTM medium'],
  ['utm_campaign', 'UTM campaign'],
  ['program', 'Program'],
  ['vendor', 'Vendor'],
];
const INTERVALS: ReadonlyArray<readonly [Interval, string]> = [
  ['day', 'Day'],
  ['week', 'Week'],
  ['month', 'Month'],
];
const STAGE_NAMES: Record<Schemas['ConversionFunnel']['stages'][number]['stage'], string> = {
  submitted: 'Submitted',
  valid: 'Valid',
  accepted: 'Accepted',
  converted: 'Converted',
};

/** "+12.5 % on the previous period", or nothing to compare with. */
function change(fraction: number | null): string {
  if (fraction === null) return 'no previous period to compare';
  return `${fraction >= 0 ? '+' : ''}${(fraction * 100).toFixed(1)} % on the previous period`;
}

export function AnalyticsPage() {
  const { range, setRange, key } = useDateRange();
  const [groupBy, setGroupBy] = useState<GroupBy>('source');
  const [interval, setTrendInterval] = useState<Interval>('day');
  const query = { params: { query: range } };
  const report = useLoad(async () => {
    const [summary, overview, funnel, roi] = await Promise.all([
      call(api.GET('/api/analytics/executive-summary', query)),
      call(api.GET('/api/analytics', query)),
      call(api.GET('/api/analytics/conversion-funnel', query)),
      call(api.GET('/api/analytics/vendor-roi', query)),
    ]);
    return { summary: summary.data, overview: overview.data, funnel: funnel.data, roi: roi.data };
  }, key);
  const trend = useLoad(
    async () =>
      (await call(api.GET('/api/analytics/lead-volume-trend', { params: { query: { ...range, interval } } }))).data,
    `${key}:${interval}`,
  );
  const sources = useLoad(
    async () =>
      (await call(api.GET('/api/analytics/source-performance', { params: { query: { ...range, groupBy } } }))).data,
    `${key}:${groupBy}`,
  );

  const data = report.data;
  const groupLabel = GROUPS.find(([value]) => value === groupBy)?.[1] ?? groupBy;
  const loading = report.loading || trend.loading || sources.loading;
  return (
    <section aria-busy={loading} data-testid="reports">
      <PageHeader title="Reports">
        <button
          type="button"
          onClick={() => {
            report.reload();
            trend.reload();
            sources.reload();
          }}
          disabled={loading}
        >
          Refresh
        </button>
      </PageHeader>
      <DateRangeForm range={range} setRange={setRange} />
      <Alert>{report.error ?? trend.error ?? sources.error}</Alert>
      {!data ? (
        report.error ? null : (
          <Loading what="the reports" />
        )
      ) : (
        <>
          <ul className="tiles" aria-label="This period" data-testid="report-tiles">
            <Tile
              label="Leads submitted"
              value={String(data.summary.current.submitted)}
              detail={change(data.summary.change.submitted)}
              testId="tile-submitted"
            />
            <Tile
              label="Accepted"
              value={String(data.summary.current.accepted)}
              detail={`${percent(data.summary.current.acceptanceRate)} of submitted; ${change(data.summary.change.accepted)}`}
              testId="tile-accepted"
            />
            <Tile
              label="Conversions"
              value={String(data.summary.current.conversions)}
              detail={`${percent(data.summary.current.conversionRate)} of inquiries; ${change(data.summary.change.conversions)}`}
              testId="tile-conversions"
            />
            <Tile
              label="Rejected"
              value={String(data.overview.totals.rejected)}
              detail={`duplicates ${data.overview.totals.duplicates}, pending ${data.overview.totals.pending}`}
              testId="tile-rejected"
            />
          </ul>

          <div className="charts">
            <figure className="chart">
              <figcaption>Lead volume by outcome</figcaption>
              <form className="filters" aria-label="Trend interval" onSubmit={(event) => event.preventDefault()}>
                <Select
                  label="Per"
                  value={interval}
                  onChange={(event) => setTrendInterval(event.target.value as Interval)}
                  options={INTERVALS}
                />
              </form>
              {trend.data ? (
                <ResponsiveContainer width="100%" height={260}>
                  <BarChart data={trend.data.points} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
                    <CartesianGrid strokeDasharray="3 3" stroke="var(--line)" />
                    <XAxis dataKey="start" tickFormatter={(date: string) => date.slice(5)} stroke="var(--muted)" />
                    <YAxis allowDecimals={false} stroke="var(--muted)" />
                    <Tooltip />
                    <Legend />
                    <Bar
                      dataKey="accepted"
                      name="Accepted"
                      stackId="outcome"
                      fill="#12a150"
                      isAnimationActive={false}
                    />
                    <Bar
                      dataKey="duplicates"
                      name="Duplicates"
                      stackId="outcome"
                      fill="#8a5cf6"
                      isAnimationActive={false}
                    />
                    <Bar
                      dataKey="rejected"
                      name="Rejected"
                      stackId="outcome"
                      fill="#d64545"
                      isAnimationActive={false}
                    />
                    <Bar dataKey="pending" name="Pending" stackId="outcome" fill="#9aa4b2" isAnimationActive={false} />
                  </BarChart>
                </ResponsiveContainer>
              ) : (
                <Loading what="the trend" />
              )}
            </figure>
            <figure className="chart">
              <figcaption>Conversion funnel</figcaption>
              <DataTable
                rows={data.funnel.stages}
                columns={['Stage', 'Leads', 'Of the stage before', 'Of submitted']}
                testId="conversion-funnel"
              >
                {(stage) => (
                  <tr key={stage.stage}>
                    <td>{STAGE_NAMES[stage.stage]}</td>
                    <td>{stage.count}</td>
                    <td>{percent(stage.rateFromPrevious)}</td>
                    <td>{percent(stage.rateFromSubmitted)}</td>
                  </tr>
                )}
              </DataTable>
            </figure>
          </div>

          <h2>Performance by {groupLabel.toLowerCase()}</h2>
          <form className="filters" aria-label="Group by" onSubmit={(event) => event.preventDefault()}>
            <Select
              label="Group by"
              value={groupBy}
              onChange={(event) => setGroupBy(event.target.value as GroupBy)}
              options={GROUPS}
            />
          </form>
          <DataTable
            rows={sources.data?.rows ?? []}
            columns={[groupLabel, 'Submitted', 'Accepted', 'Rejected', 'Duplicates', 'Acceptance rate']}
            empty={sources.data ? 'No lead in this period.' : undefined}
            testId="source-performance"
          >
            {(row) => (
              <tr key={row.value ?? '(none)'}>
                <td>{row.label ?? row.value ?? '(none)'}</td>
                <td>{row.submitted}</td>
                <td>{row.accepted}</td>
                <td>{row.rejected}</td>
                <td>{row.duplicates}</td>
                <td>{percent(row.acceptanceRate)}</td>
              </tr>
            )}
          </DataTable>

          <h2>Vendor cost and conversions</h2>
          <p className="muted">
            Spend is a vendor's cost per lead (set on the Vendors page) times its accepted leads:{' '}
            {formatMoney(data.roi.totals.spend)} in all, {data.roi.totals.conversions} conversions,{' '}
            {formatMoney(data.roi.totals.costPerConversion)} per conversion.
          </p>
          <DataTable
            rows={data.roi.vendors}
            columns={[
              'Vendor',
              'Type',
              'Cost per lead',
              'Submitted',
              'Accepted',
              'Conversions',
              'Spend',
              'Cost per conversion',
            ]}
            empty="No vendor yet."
            testId="vendor-roi"
          >
            {(vendor) => (
              <tr key={vendor.vendorId}>
                <td>{vendor.vendorName}</td>
                <td>{vendor.type}</td>
                <td>{formatMoney(vendor.costPerLead)}</td>
                <td>{vendor.submitted}</td>
                <td>{vendor.accepted}</td>
                <td>{vendor.conversions}</td>
                <td>{formatMoney(vendor.spend)}</td>
                <td>{formatMoney(vendor.costPerConversion)}</td>
              </tr>
            )}
          </DataTable>

          <h2>Rejection reasons</h2>
          <DataTable
            rows={data.overview.rejectionReasons}
            columns={['Reason', 'Leads']}
            empty="No lead was rejected in this period."
            testId="rejection-reasons"
          >
            {(row) => (
              <tr key={row.reason}>
                <td>{row.reason}</td>
                <td>{row.count}</td>
              </tr>
            )}
          </DataTable>
        </>
      )}
    </section>
  );
}
