/**
 * The organization (GET/PATCH /api/organization): its name and the validation settings every
 * submission is checked with (docs/decisions.md "Validation"): disposable emails, the MX look-up,
 * the country of national phone numbers, required fields, bot detection; and the review queue's
 * settings (docs/review-queue.md "Settings"): its SLA and the automatic decision.
 */
import { useState, type FormEvent } from 'react';
import { api, call } from '../api/client';
import { can } from '../api/permissions';
import { currentSession } from '../api/session';
import { formText } from '../components/form-text';
import { useAction, useLoad } from '../components/use-load';
import { Alert, Check, Field, Loading, PageHeader, Select, TextArea } from '../components/ui';
import { ConsentSettingsForm } from './consent-settings.form';

interface BotDetection {
  honeypot?: boolean;
  reject_below_ms?: number;
  flag_below_ms?: number;
  high_risk_ips?: string[];
  high_risk_ip_action?: 'reject' | 'flag' | 'allow' | null;
}
interface Validation {
  allow_disposable_emails?: boolean;
  mx_check?: boolean;
  default_phone_country?: string;
  required_fields?: string[];
  bot_detection?: BotDetection;
}

/** A number of hours, or null for an empty field. */
function hoursOrNull(text: string): number | null {
  return text.trim() === '' ? null : Number(text);
}

function list(text: string): string[] {
  return text
    .split(/[\s,]+/)
    .map((item) => item.trim())
    .filter(Boolean);
}

export function OrganizationPage() {
  const writable = can(currentSession()?.user.role, 'organization:write');
  const organization = useLoad(async () => (await call(api.GET('/api/organization'))).data, 'organization');
  const action = useAction();
  const [saved, setSaved] = useState(false);
  const data = organization.data;
  const validation = (data?.settings.validation ?? {}) as Validation;
  const bots = validation.bot_detection ?? {};

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = new FormData(event.currentTarget);
    const on = (name: string) => form.get(name) === 'on';
    void action.run(async () => {
      setSaved(false);
      const body = {
        name: formText(form, 'name').trim(),
        settings: {
          validation: {
            allow_disposable_emails: on('allow_disposable_emails'),
            mx_check: on('mx_check'),
            default_phone_country: formText(form, 'default_phone_country').trim().toUpperCase(),
            required_fields: list(formText(form, 'required_fields')),
            bot_detection: {
              honeypot: on('honeypot'),
              reject_below_ms: Number(formText(form, 'reject_below_ms')),
              flag_below_ms: Number(formText(form, 'flag_below_ms')),
              high_risk_ips: list(formText(form, 'high_risk_ips')),
              high_risk_ip_action: formText(form, 'high_risk_ip_action') as 'reject' | 'flag' | 'allow',
            },
          },
          review_sla_hours: hoursOrNull(formText(form, 'review_sla_hours')),
          auto_decision_after_hours: hoursOrNull(formText(form, 'auto_decision_after_hours')),
          auto_decision: (formText(form, 'auto_decision') || null) as 'approve' | 'reject' | null,
        },
      };
      await call(api.PATCH('/api/organization', { body }));
      setSaved(true);
      organization.reload();
    });
  };

  return (
    <section>
      <PageHeader title="Organization" />
      <Alert>{action.error ?? organization.error}</Alert>
      <Alert tone="success">{saved && 'Saved. The next lead is checked with these settings.'}</Alert>
      {!data ? (
        organization.error ? null : (
          <Loading what="the organization" />
        )
      ) : (
        <form className="card" aria-label="Organization settings" onSubmit={submit} key={data.updated_at}>
          <fieldset disabled={!writable}>
            <legend>Organization</legend>
            <div className="grid">
              <Field label="Name" name="name" required minLength={2} maxLength={100} defaultValue={data.name} />
              <Field label="Plan" value={data.plan} readOnly />
            </div>
          </fieldset>
          <fieldset disabled={!writable}>
            <legend>Validation of every submission</legend>
            <Check
              label="Accept disposable email addresses"
              name="allow_disposable_emails"
              defaultChecked={validation.allow_disposable_emails ?? false}
            />
            <Check
              label="Check that the email's domain receives mail (MX look-up)"
              name="mx_check"
              defaultChecked={validation.mx_check ?? true}
            />
            <div className="grid">
              <Field
                label="Country of national phone numbers"
                name="default_phone_country"
                defaultValue={validation.default_phone_country ?? 'US'}
                pattern="[A-Za-z]{2}"
                hint="Two letters, such as US or GB."
                required
              />
              <Field
                label="Required fields besides email"
                name="required_fields"
                defaultValue={(validation.required_fields ?? []).join(', ')}
                hint="Comma-separated, such as phone, program_interest."
              />
            </div>
          </fieldset>
          <fieldset disabled={!writable}>
            <legend>Bot detection</legend>
            <Check
              label="Reject submissions that fill the honeypot field"
              name="honeypot"
              defaultChecked={bots.honeypot ?? true}
            />
            <div className="grid">
              <Field
                label="Reject forms filled faster than (ms)"
                name="reject_below_ms"
                type="number"
                min={0}
                max={3600000}
                defaultValue={bots.reject_below_ms ?? 1000}
              />
              <Field
                label="Flag forms filled faster than (ms)"
                name="flag_below_ms"
                type="number"
                min={0}
                max={3600000}
                defaultValue={bots.flag_below_ms ?? 3000}
              />
              <Select
                label="High-risk addresses"
                name="high_risk_ip_action"
                defaultValue={bots.high_risk_ip_action ?? 'flag'}
                options={[
                  ['flag', 'Flag for review'],
                  ['reject', 'Reject'],
                  ['allow', 'Allow'],
                ]}
              />
            </div>
            <TextArea
              label="High-risk IP addresses or ranges"
              name="high_risk_ips"
              rows={2}
              defaultValue={(bots.high_risk_ips ?? []).join('\n')}
              hint="Addresses or CIDR ranges, separated by spaces, commas or lines."
            />
          </fieldset>
          <fieldset disabled={!writable}>
            <legend>Review queue</legend>
            <div className="grid">
              <Field
                label="Overdue after (hours)"
                name="review_sla_hours"
                type="number"
                step="any"
                min={0.01}
                max={8760}
                defaultValue={data.settings.review_sla_hours ?? ''}
                hint="Empty: no SLA."
              />
              <Field
                label="Decide automatically after (hours)"
                name="auto_decision_after_hours"
                type="number"
                step="any"
                min={0.01}
                max={8760}
                defaultValue={data.settings.auto_decision_after_hours ?? ''}
                hint="Empty: never."
              />
              <Select
                label="Automatic decision"
                name="auto_decision"
                defaultValue={data.settings.auto_decision ?? ''}
                options={[
                  ['', 'None'],
                  ['approve', 'Approve'],
                  ['reject', 'Reject'],
                ]}
              />
            </div>
          </fieldset>
          {writable && (
            <button type="submit" className="primary" disabled={action.pending}>
              Save settings
            </button>
          )}
        </form>
      )}
      {data && (
        <ConsentSettingsForm
          requirements={data.settings.consent_requirements ?? {}}
          retentionDays={data.settings.consent_retention_days ?? 1826}
          writable={writable}
          onSaved={() => organization.reload()}
        />
      )}
    </section>
  );
}
