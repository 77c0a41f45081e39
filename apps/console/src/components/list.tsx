/** The list screens' shared shapes: a loading/error state before the data, and the data table. */
import type { FormEvent, ReactNode } from 'react';
import { Loading } from './ui';
import type { Loaded } from './use-load';

/**
 * "Loading …" until the first answer, nothing on an error (the page's Alert says it), then the
 * data. A reload keeps showing the previous data.
 */
export function ListState<T>({
  loaded,
  what,
  children,
}: {
  loaded: Loaded<T>;
  what: string;
  children: (data: T) => ReactNode;
}) {
  if (loaded.data === undefined) return loaded.error ? null : <Loading what={what} />;
  return <>{children(loaded.data)}</>;
}

/**
 * A `table.data` in its scrolling wrapper: column headers (`false` for a column the role does not
 * see, such as Actions), one `<tr>` a row from `children` (keyed by the caller), and, when there is
 * no row and `empty` is given, a row saying so that spans every column.
 */
export function DataTable<T>({
  rows,
  columns,
  empty,
  label,
  testId,
  children,
}: {
  rows: readonly T[];
  columns: ReadonlyArray<string | false>;
  empty?: string;
  label?: string;
  testId?: string;
  children: (row: T, index: number) => ReactNode;
}) {
  return (
    <div className="table-wrap">
      <table className="data" aria-label={label} data-testid={testId}>
        <thead>
          <tr>
            {columns.map(
              (column) =>
                column !== false && (
                  <th key={column} scope="col">
                    {column}
                  </th>
                ),
            )}
          </tr>
        </thead>
        <tbody>
          {rows.map(children)}
          {empty !== undefined && rows.length === 0 && (
            <tr>
              <td colSpan={columns.length} className="empty">
                {empty}
              </td>
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}

/** A table row replaced by its edit form (in a `DataTable`): the fields, then the primary submit button and Cancel. */
export function InlineEditRow({
  colSpan,
  label,
  submitLabel,
  onSubmit,
  onCancel,
  children,
}: {
  colSpan: number;
  label: string;
  submitLabel: string;
  onSubmit: (event: FormEvent<HTMLFormElement>) => void;
  onCancel: () => void;
  children: ReactNode;
}) {
  return (
    <tr>
      <td colSpan={colSpan}>
        <form className="inline-form" aria-label={label} onSubmit={onSubmit}>
          {children}
          <button type="submit" className="primary">
            {submitLabel}
          </button>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </form>
      </td>
    </tr>
  );
}
