/**
 * Small building blocks: every input has a label, alerts are announced, focus stays visible. Text
 * people typed (names, sources, rule names) is shown in <bdi>, isolated from what surrounds it, so
 * a right-to-left override in it cannot reverse the rest of a row or sentence (docs/console.md, "User text").
 */
import {
  useEffect,
  useId,
  useState,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from 'react';

export function Field({
  label,
  hint,
  ...input
}: InputHTMLAttributes<HTMLInputElement> & { label: string; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <input id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function TextArea({
  label,
  hint,
  ...input
}: TextareaHTMLAttributes<HTMLTextAreaElement> & { label: string; hint?: string }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && (
        <small id={`${id}-hint`} className="hint">
          {hint}
        </small>
      )}
    </div>
  );
}

export function Select({
  label,
  options,
  ...select
}: SelectHTMLAttributes<HTMLSelectElement> & { label: string; options: ReadonlyArray<readonly [string, string]> }) {
  const id = useId();
  return (
    <div className="field">
      <label htmlFor={id}>{label}</label>
      <select id={id} {...select}>
        {options.map(([value, text]) => (
          <option key={value} value={value}>
            {text}
          </option>
        ))}
      </select>
    </div>
  );
}

export function Check({ label, ...input }: InputHTMLAttributes<HTMLInputElement> & { label: string }) {
  const id = useId();
  return (
    <div className="check">
      <input id={id} type="checkbox" {...input} />
      <label htmlFor={id}>{label}</label>
    </div>
  );
}

export function Alert({ children, tone = 'error' }: { children: ReactNode; tone?: 'error' | 'success' | 'info' }) {
  if (!children) return null;
  return (
    <div className={`alert alert-${tone}`} role={tone === 'error' ? 'alert' : 'status'}>
      {children}
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ReactNode }) {
  useEffect(() => {
    document.title = `${title} · leadstream`;
  }, [title]);
  return (
    <header className="page-header">
      <h1>
        <bdi>{title}</bdi>
      </h1>
      {children && <div className="page-actions">{children}</div>}
    </header>
  );
}

/** A form's last row: the primary submit button (disabled while the action runs) and Cancel. */
export function FormActions({
  submitLabel,
  pending,
  onCancel,
}: {
  submitLabel: string;
  pending: boolean;
  onCancel: () => void;
}) {
  return (
    <div className="row">
      <button type="submit" className="primary" disabled={pending}>
        {submitLabel}
      </button>
      <button type="button" onClick={onCancel}>
        Cancel
      </button>
    </div>
  );
}

/** A button of a table row, named for screen readers with the row's name: "Delete vendor-a" reads better than a list of "Delete". */
export function RowAction({
  label,
  name,
  onClick,
  disabled,
  danger = false,
}: {
  label: string;
  name: string;
  onClick: () => void;
  disabled?: boolean;
  danger?: boolean;
}) {
  return (
    <button
      type="button"
      className={danger ? 'danger' : undefined}
      onClick={onClick}
      disabled={disabled}
      aria-label={`${label} ${name}`}
    >
      {label}
    </button>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p className="muted" role="status">
      Loading {what}…
    </p>
  );
}

/** A secret shown once (a new API key), with a copy button. */
export function SecretOnce({ label, value, onDone }: { label: string; value: string; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
    } catch {
      // No clipboard (an insecure origin): select the text so Ctrl+C copies it.
      const range = document.createRange();
      const node = document.getElementById('secret-value');
      if (node) {
        range.selectNodeContents(node);
        window.getSelection()?.removeAllRanges();
        window.getSelection()?.addRange(range);
      }
    }
  };
  return (
    <section className="secret" aria-label={label}>
      <h2>{label}</h2>
      <p>Copy it now: it is shown only once and cannot be retrieved later (only rotated).</p>
      <code id="secret-value" className="secret-value" data-testid="secret-value">
        {value}
      </code>
      <div className="row">
        <button type="button" className="primary" onClick={() => void copy()}>
          {copied ? 'Copied' : 'Copy'}
        </button>
        <button type="button" onClick={onDone}>
          Done
        </button>
      </div>
    </section>
  );
}

export function formatDateTime(value: string | null | undefined): string {
  if (!value) return '—';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : date.toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'short' });
}

/**
 * An amount of money as every page shows it ($12.50): a vendor's cost per lead on the Vendors page
 * and in the reports, spend, cost per conversion. The organization's amounts are in US dollars.
 */
export function formatMoney(amount: number | null | undefined): string {
  return amount === null || amount === undefined
    ? '—'
    : amount.toLocaleString('en-US', { style: 'currency', currency: 'USD' });
}

export function StatusBadge({ status }: { status: string }) {
  return <span className={`badge badge-${status}`}>{status}</span>;
}
