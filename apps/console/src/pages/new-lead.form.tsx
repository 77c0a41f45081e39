/**
 * A lead entered by hand (POST /api/leads, `createLead`): a walk-in at a college fair, a phone
 * call. It goes through the same pipeline as a vendor's; the answer says accepted (201, or 202
 * while still in the pipeline), a duplicate (409, with the lead it duplicates) or rejected (422).
 */
import { useState, type FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import type { Schemas } from '@leadstream/client';
import { api, call, ConsoleError } from '../api/client';
import { formText } from '../components/form-text';
import { useAction } from '../components/use-load';
import { Alert, Field, FormActions, Select } from '../components/ui';

function duplicateOf(error: ConsoleError): string | null {
  const body = error.body as { error?: { duplicate_of?: unknown } } | undefined;
  return typeof body?.error?.duplicate_of === 'string' ? body.error.duplicate_of : null;
}

export function NewLeadForm({ vendors, onClose }: { vendors: Schemas['Vendor'][]; onClose: () => void }) {
  const navigate = useNavigate();
  const action = useAction();
  const [duplicate, setDuplicate] = useState<string | null>(null);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const fields: Record<string, string> = {};
    for (const name of ['first_name', 'last_name', 'phone', 'program_interest', 'source', 'vendor_id']) {
      const value = formText(form, name).trim();
      if (value) fields[name] = value;
    }
    setDuplicate(null);
    void action.run(async () => {
      try {
        const created = await call(
          api.POST('/api/leads', { body: { email: formText(form, 'email').trim(), ...fields } }),
        );
        void navigate(`/leads/${encodeURIComponent(created.data.id)}`);
      } catch (error) {
        if (error instanceof ConsoleError && error.apiError.status === 409) setDuplicate(duplicateOf(error));
        throw error;
      }
    });
  };
  return (
    <form className="card" aria-label="New lead" onSubmit={submit}>
      <h2>New lead</h2>
      <div className="grid">
        <Field label="Email" name="email" type="email" required autoFocus />
        <Field label="First name" name="first_name" maxLength={100} />
        <Field label="Last name" name="last_name" maxLength={100} />
        <Field label="Phone" name="phone" type="tel" maxLength={40} />
        <Field label="Program interest" name="program_interest" maxLength={200} />
        <Field label="Source" name="source" maxLength={200} placeholder="college-fair" />
        {vendors.length > 0 && (
          <Select
            label="Vendor (optional)"
            name="vendor_id"
            options={[
              ['', 'Manual entry (default)'],
              ...vendors
                .filter((vendor) => vendor.name !== 'Manual entry')
                .map((vendor) => [vendor.id, vendor.name] as const),
            ]}
          />
        )}
      </div>
      <Alert>
        {action.error}
        {duplicate && (
          <>
            {' '}
            <Link to={`/leads/${encodeURIComponent(duplicate)}`}>Open the existing lead</Link>
          </>
        )}
      </Alert>
      <FormActions submitLabel="Add lead" pending={action.pending} onCancel={onClose} />
    </form>
  );
}
