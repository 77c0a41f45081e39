/**
 * Funnel dashboard (docs/analytics.md "Funnel"): overview tiles, daily conversions, time to
 * convert, drop-offs by vendor and the vendor pairs, for a date range (default the last 30 days).
 */
import { Link } from 'react-router-dom';
import {
  Bar,
  BarChart,
  CartesianGrid,
  Legend,
  Line,
  LineChart,
  ResponsiveContainer,
  Tooltip,
  XAxis,
  YAxis,
} from 'recharts';
import { api, call } from '../api/client';
import { DateRangeForm, percent, Tile, useDateRange } from '../components/date-range';
import { DataTable } from '../components/list';
import { useLoad } from '../components/use-load';
import { Alert, Loading, PageHeader } from '../components/ui';

export function FunnelPage() {
  const { range, setRange, key } = useDateRange();
  const query = { params: { query: range } };
  const report = useLoad(async () => {
    const [overview, daily, time, dropOffs, byVendor, links] = await Promise.all([
      call(api.GET('/api/analytics/funnel/overview', query)),
      call(api.GET('/api/analytics/funnel/daily', query)),
      call(api.GET('/api/analytics/funnel/time-to-convert', query)),
      call(api.GET('/api/analytics/funnel/drop-offs', query)),
      call(api.GET('/api/analytics/funnel/by-vendor', query)),
      call(api.GET('/api/vendor-funnel-links/has-links')),
    ]);
    return {
      overview: overview.data,
      daily: daily.data,
      time: time.data,
      dropOffs: dropOffs.data,
      byVendor: byVendor.data,
      hasLinks: links.hasLinks,
    };
  }, key);

  const data = report.data;
  return (
    <section aria-busy={report.loading} data-testid="funnel">
      <PageHeader title="Funnel">
        <button type="button" onClick={report.reload} disabled={report.loading}>
          Refresh
        </button>
      </PageHeader>
      <DateRangeForm range={range} setRange={setRange} />
      <Alert>{report.error}</Alert>
      {!data ? (
        report.error ? null : (
          <Loading what="the funnel" />
        )
      ) : (
        <>
          {!data.hasLinks && (
            <Alert tone="info">
              No funnel link yet: conversions are counted between an inquiry vendor and an application vendor linked on
              the <Link to="/vendors">Vendors</Link> page.
            </Alert>
          )}
          <ul className="tiles" aria-label="Overview" data-testid="funnel-tiles">
            <Tile label="Inquiries" value={String(data.overview.totalInquiries)} testId="tile-inquiries" />
            <Tile label="Applications" value={String(data.overview.totalApplications)} testId="tile-applications" />
            <Tile
              label="Matched applications"
              value={String(data.overview.matchedApplications)}
              testId="tile-matched"
            />
            <Tile label="Conversion rate" value={percent(data.overview.conversionRate)} testId="tile-rate" />
            <Tile
              label="Average time to convert"
              value={data.overview.averageTimeToConvertFormatted ?? '—'}
              testId="tile-time"
            />
          </ul>
          <div className="charts">
            <figure className="chart">
              <figcaption>Daily inquiries, applications and conversions</figcaption>
              <ResponsiveContainer width="100%" height={260}>
                <LineChart data={data.daily.daily} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--line)" />
                  <XAxis dataKey="date" tickFormatter={(date: string) => date.slice(5)} stroke="var(--muted)" />
                  <YAxis allowDecimals={false} stroke="var(--muted)" />
                  <Tooltip />
                  <Legend />
                  <Line
                    type="monotone"
                    dataKey="inquiries"
                    name="Inquiries"
                    stroke="#2453c7"
                    dot={false}
                    isAnimationActive={false}
                  />
                  <Line
                    type="monotone"
                    dataKey="applications"
                    name="Applications"
                    stroke="#8a5cf6"
                    dot={false}
                    isAnimationActive={false}
                  />
                  <Line
                    type="monotone"
                    dataKey="conversions"
                    name="Conversions"
                    stroke="#12a150"
                    strokeWidth={2}
                    dot={false}
                    isAnimationActive={false}
                  />
                </LineChart>
              </ResponsiveContainer>
            </figure>
            <figure className="chart">
              <figcaption>
                Time to convert
                {data.time.medianTimeToConvertFormatted ? ` (median ${data.time.medianTimeToConvertFormatted})` : ''}
              </figcaption>
              <ResponsiveContainer width="100%" height={260}>
                <BarChart data={data.time.distribution} margin={{ top: 8, right: 16, bottom: 0, left: -16 }}>
                  <CartesianGrid strokeDasharray="3 3" stroke="var(--line)" />
                  <XAxis dataKey="bucket" stroke="var(--muted)" />
                  <YAxis allowDecimals={false} stroke="var(--muted)" />
                  <Tooltip />
                  <Bar dataKey="count" name="Conversions" fill="#12a150" isAnimationActive={false} />
                </BarChart>
              </ResponsiveContainer>
            </figure>
          </div>
          <h2>Drop-offs by vendor</h2>
          <p className="muted">
            {data.dropOffs.totalDroppedInquiries} inquiries at least 24 hours old did not convert (
            {percent(data.dropOffs.dropOffRate)}).
          </p>
          <DataTable
            rows={data.dropOffs.byVendor}
            columns={['Vendor', 'Inquiries', 'Dropped', 'Drop-off rate']}
            empty="No drop-off in this period."
          >
            {(row) => (
              <tr key={row.vendorId}>
                <td>{row.vendorName ?? row.vendorId}</td>
                <td>{row.totalInquiries}</td>
                <td>{row.droppedCount}</td>
                <td>{percent(row.dropOffRate)}</td>
              </tr>
            )}
          </DataTable>
          <h2>Vendor pairs</h2>
          <DataTable
            rows={data.byVendor.vendorPairs}
            columns={['Inquiry vendor', 'Application vendor', 'Inquiries', 'Conversions', 'Rate', 'Average time']}
            empty="No linked vendor pair."
            testId="vendor-pairs"
          >
            {(pair) => (
              <tr key={`${pair.inquiryVendorId}:${pair.applicationVendorId}`}>
                <td>{pair.inquiryVendorName ?? pair.inquiryVendorId}</td>
                <td>{pair.applicationVendorName ?? pair.applicationVendorId}</td>
                <td>{pair.inquiries}</td>
                <td>{pair.conversions}</td>
                <td>{percent(pair.conversionRate)}</td>
                <td>{pair.averageTimeToConvertFormatted ?? '—'}</td>
              </tr>
            )}
          </DataTable>
        </>
      )}
    </section>
  );
}
