/**
 * Funnel dashboard (spec 4.11, docs/analytics.md): overview tiles, daily conversions, time to
 * convert, drop-offs by vendor and the vendor pairs, for a date range (default the last 30 days).
 */
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { api, call } from '../api/client';
import { useLoad } from '../components/use-load';
import { Alert, Field, Loading, PageHeader } from '../components/ui';

function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

function daysAgo(days: number): string {
  return isoDay(new Date(Date.now() - days * 86_400_000));
}

const percent = (fraction: number) => `${(fraction * 100).toFixed(1)} %`;
const PRESETS = [7, 30, 90] as const;

export function FunnelPage() {
  const [range, setRange] = useState({ startDate: daysAgo(30), endDate: isoDay(new Date()) });
  const query = { params: { query: range } };
  const key = `${range.startDate}:${range.endDate}`;
  const report = useLoad(async () => {
    const [overview, daily, time, dropOffs, byVendor, links] = await Promise.all([
      call(api.GET('/api/analytics/funnel/overview', query)),
      call(api.GET('/api/analytics/funnel/daily', query)),
      call(api.GET('/api/analytics/funnel/time-to-convert', query)),
      call(api.GET('/api/analytics/funnel/drop-offs', query)),
      call(api.GET('/api/analytics/funnel/by-vendor', query)),
      call(api.GET('/api/vendor-funnel-links/has-links')),
    ]);
    return { overview: overview.data, daily: daily.data, time: time.data, dropOffs: dropOffs.data, byVendor: byVendor.data, hasLinks: links.hasLinks };
  }, key);

  const data = report.data;
  return (
    <section aria-busy={report.loading} data-testid="funnel">
      <PageHeader title="Funnel">
        <button type="button" onClick={report.reload} disabled={report.loading}>
          Refresh
        </button>
      </PageHeader>
      <form className="filters" aria-label="Date range" onSubmit={(event) => event.preventDefault()}>
        <Field label="From" type="date" value={range.startDate} max={range.endDate} onChange={(event) => event.target.value && setRange({ ...range, startDate: event.target.value })} />
        <Field label="To" type="date" value={range.endDate} min={range.startDate} onChange={(event) => event.target.value && setRange({ ...range, endDate: event.target.value })} />
        <div className="presets" role="group" aria-label="Quick ranges">
          {PRESETS.map((days) => (
            <button key={days} type="button" onClick={() => setRange({ startDate: daysAgo(days), endDate: isoDay(new Date()) })}>
              Last {days} days
            </button>
          ))}
        </div>
      </form>
      <Alert>{report.error}</Alert>
      {!data ? (
        report.error ? null : <Loading what="the funnel" />
      ) : (
        <>
          {!data.hasLinks && (
            <Alert tone="info">
              No funnel link yet: conversions are counted between an inquiry vendor and an application vendor linked on the <Link to="/vendors">Vendors</Link> page.
            </Alert>
          )}
          <ul className="tiles" aria-label="Overview" data-testid="funnel-tiles">
            <Tile label="Inquiries" value={String(data.overview.totalInquiries)} testId="tile-inquiries" />
            <Tile label="Applications" value={String(data.overview.totalApplications)} testId="tile-applications" />
            <Tile label="Matched applications" value={String(data.overview.matchedApplications)} testId="tile-matched" />
            <Tile label="Conversion rate" value={percent(data.overview.conversionRate)} testId="tile-rate" />
            <Tile label="Average time to convert" value={data.overview.averageTimeToConvertFormatted ?? '—'} testId="tile-time" />
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
                  <Line type="monotone" dataKey="inquiries" name="Inquiries" stroke="#2453c7" dot={false} isAnimationActive={false} />
                  <Line type="monotone" dataKey="applications" name="Applications" stroke="#8a5cf6" dot={false} isAnimationActive={false} />
                  <Line type="monotone" dataKey="conversions" name="Conversions" stroke="#12a150" strokeWidth={2} dot={false} isAnimationActive={false} />
                </LineChart>
              </ResponsiveContainer>
            </figure>
            <figure className="chart">
              <figcaption>
                Time to convert{data.time.medianTimeToConvertFormatted ? ` (median ${data.time.medianTimeToConvertFormatted})` : ''}
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
            {data.dropOffs.totalDroppedInquiries} inquiries at least 24 hours old did not convert ({percent(data.dropOffs.dropOffRate)}).
          </p>
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th scope="col">Vendor</th>
                  <th scope="col">Inquiries</th>
                  <th scope="col">Dropped</th>
                  <th scope="col">Drop-off rate</th>
                </tr>
              </thead>
              <tbody>
                {data.dropOffs.byVendor.map((row) => (
                  <tr key={row.vendorId}>
                    <td>{row.vendorName ?? row.vendorId}</td>
                    <td>{row.totalInquiries}</td>
                    <td>{row.droppedCount}</td>
                    <td>{percent(row.dropOffRate)}</td>
                  </tr>
                ))}
                {data.dropOffs.byVendor.length === 0 && (
                  <tr>
                    <td colSpan={4} className="empty">
                      No drop-off in this period.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
          <h2>Vendor pairs</h2>
          <div className="table-wrap">
            <table className="data" data-testid="vendor-pairs">
              <thead>
                <tr>
                  <th scope="col">Inquiry vendor</th>
                  <th scope="col">Application vendor</th>
                  <th scope="col">Inquiries</th>
                  <th scope="col">Conversions</th>
                  <th scope="col">Rate</th>
                  <th scope="col">Average time</th>
                </tr>
              </thead>
              <tbody>
                {data.byVendor.vendorPairs.map((pair) => (
                  <tr key={`${pair.inquiryVendorId}:${pair.applicationVendorId}`}>
                    <td>{pair.inquiryVendorName ?? pair.inquiryVendorId}</td>
                    <td>{pair.applicationVendorName ?? pair.applicationVendorId}</td>
                    <td>{pair.inquiries}</td>
                    <td>{pair.conversions}</td>
                    <td>{percent(pair.conversionRate)}</td>
                    <td>{pair.averageTimeToConvertFormatted ?? '—'}</td>
                  </tr>
                ))}
                {data.byVendor.vendorPairs.length === 0 && (
                  <tr>
                    <td colSpan={6} className="empty">
                      No linked vendor pair.
                    </td>
                  </tr>
                )}
              </tbody>
            </table>
          </div>
        </>
      )}
    </section>
  );
}

function Tile({ label, value, testId }: { label: string; value: string; testId: string }) {
  return (
    <li className="tile" data-testid={testId}>
      <span className="tile-label">{label}</span>
      <span className="tile-value">{value}</span>
    </li>
  );
}
