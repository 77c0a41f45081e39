/**
 * The reporting period of the funnel and report pages: two date inputs and quick ranges (default
 * the last 30 days, as the API's), and the query the analytics endpoints take.
 */
import { useState } from 'react';
import { Field } from './ui';

export interface DateRange {
  startDate: string;
  endDate: string;
}

export function isoDay(date: Date): string {
  return date.toISOString().slice(0, 10);
}

export function daysAgo(days: number): string {
  return isoDay(new Date(Date.now() - days * 86_400_000));
}

export const percent = (fraction: number): string => `${(fraction * 100).toFixed(1)} %`;

const PRESETS = [7, 30, 90] as const;

/** The range, a setter, and a key that changes with it (for useLoad). */
export function useDateRange(): { range: DateRange; setRange: (range: DateRange) => void; key: string } {
  const [range, setRange] = useState<DateRange>({ startDate: daysAgo(30), endDate: isoDay(new Date()) });
  return { range, setRange, key: `${range.startDate}:${range.endDate}` };
}

export function DateRangeForm({ range, setRange }: { range: DateRange; setRange: (range: DateRange) => void }) {
  return (
    <form className="filters" aria-label="Date range" onSubmit={(event) => event.preventDefault()}>
      <Field
        label="From"
        type="date"
        value={range.startDate}
        max={range.endDate}
        onChange={(event) => event.target.value && setRange({ ...range, startDate: event.target.value })}
      />
      <Field
        label="To"
        type="date"
        value={range.endDate}
        min={range.startDate}
        onChange={(event) => event.target.value && setRange({ ...range, endDate: event.target.value })}
      />
      <div className="presets" role="group" aria-label="Quick ranges">
        {PRESETS.map((days) => (
          <button
            key={days}
            type="button"
            onClick={() => setRange({ startDate: daysAgo(days), endDate: isoDay(new Date()) })}
          >
            Last {days} days
          </button>
        ))}
      </div>
    </form>
  );
}

/** A figure of an overview row (tiles). */
export function Tile({
  label,
  value,
  testId,
  detail,
}: {
  label: string;
  value: string;
  testId: string;
  detail?: string;
}) {
  return (
    <li className="tile" data-testid={testId}>
      <span className="tile-label">{label}</span>
      <span className="tile-value">{value}</span>
      {detail && <span className="tile-detail muted">{detail}</span>}
    </li>
  );
}
