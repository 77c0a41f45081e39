/**
 * The organization's consent requirements (docs/consent.md), edited on the organization page:
 * whether consent is required, the phrases it must and must not contain ({{*}} for any words), its
 * maximum age, what a failing lead gets (rejected or flagged for review), and how long a deleted
 * lead's evidence is kept. Saved with PATCH /api/organization {settings:{consent_requirements, consent_retention_days}}.
 */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { formText } from '../components/form-text';
import { useAction } from '../components/use-load';
import { Alert, Check, Field, Select, TextArea } from '../components/ui';

export interface ConsentRequirementsValue {
  required?: boolean;
  required_terms?: string[];
  forbidden_terms?: string[];
  max_age_hours?: number | null;
  action?: 'reject' | 'flag';
}

/** One phrase a line; blank lines dropped. */
export function termLines(text: string): string[] {
  return text
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
}

export function ConsentSettingsForm({
  requirements,
  retentionDays,
  writable,
  onSaved,
}: {
  requirements: ConsentRequirementsValue;
  retentionDays: number;
  writable: boolean;
  onSaved: () => void;
}) {
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const age = formText(form, 'max_age_hours').trim();
    void action.run(async () => {
      setSaved(false);
      await call(
        api.PATCH('/api/organization', {
          body: {
            settings: {
              consent_requirements: {
                required: form.get('consent_required') === 'on',
                required_terms: termLines(formText(form, 'required_terms')),
                forbidden_terms: termLines(formText(form, 'forbidden_terms')),
                max_age_hours: age === '' ? null : Number(age),
                action: formText(form, 'consent_action') as 'reject' | 'flag',
              },
              consent_retention_days: Number(formText(form, 'consent_retention_days')),
            },
          },
        }),
      );
      setSaved(true);
      onSaved();
    });
  };
  return (
    <form className="card" aria-label="Consent requirements" onSubmit={submit}>
      <Alert>{action.error}</Alert>
      <Alert tone="success">{saved && 'Saved. The next lead is checked with these requirements.'}</Alert>
      <fieldset disabled={!writable}>
        <legend>Consent requirements</legend>
        <Check
          label="Require consent evidence with every submission"
          name="consent_required"
          defaultChecked={requirements.required ?? false}
        />
        <div className="grid">
          <TextArea
            label="Phrases the consent text must contain"
            name="required_terms"
            rows={3}
            defaultValue={(requirements.required_terms ?? []).join('\n')}
            hint="One a line; {{*}} stands for any words, as in: contacted by {{*}} by phone."
          />
          <TextArea
            label="Phrases it must not contain"
            name="forbidden_terms"
            rows={3}
            defaultValue={(requirements.forbidden_terms ?? []).join('\n')}
            hint="One a line."
          />
        </div>
        <div className="grid">
          <Field
            label="Maximum age of consent (hours)"
            name="max_age_hours"
            type="number"
            min={1}
            max={87600}
            defaultValue={requirements.max_age_hours ?? ''}
            hint="Empty: any age."
          />
          <Select
            label="When a requirement fails"
            name="consent_action"
            defaultValue={requirements.action ?? 'reject'}
            options={[
              ['reject', 'Reject the lead'],
              ['flag', 'Flag it for review'],
            ]}
          />
          <Field
            label="Keep a deleted lead's evidence (days)"
            name="consent_retention_days"
            type="number"
            min={1}
            max={18263}
            required
            defaultValue={retentionDays}
          />
        </div>
      </fieldset>
      {writable && (
        <button type="submit" className="primary" disabled={action.pending}>
          Save consent requirements
        </button>
      )}
    </form>
  );
}
