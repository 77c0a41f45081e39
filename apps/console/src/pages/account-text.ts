/**
 * The change-password form's errors in its own words. The API names a field by its key in each
 * detail ("current_password is not your current password", docs/api-conventions.md); the form
 * names it by the label the user sees ("Current password is not your current password.").
 */
import type { ApiError } from '@leadstream/client';

/** The labels of the change-password form, by the API's field keys. */
export const ACCOUNT_FIELD_LABELS: Readonly<Record<string, string>> = {
  current_password: 'Current password',
  new_password: 'New password',
};

/** One sentence per detail, each naming its field by its label; the API's message when there is no detail. */
export function accountErrorText(error: Pick<ApiError, 'message' | 'details'>): string {
  if (error.details.length === 0) return error.message;
  return error.details
    .map(({ field, message }) => {
      const label = ACCOUNT_FIELD_LABELS[field];
      const sentence =
        label === undefined
          ? `${field}: ${message}`
          : message.startsWith(`${field} `)
            ? `${label} ${message.slice(field.length + 1)}`
            : `${label}: ${message}`;
      return /[.!?]$/.test(sentence) ? sentence : `${sentence}.`;
    })
    .join(' ');
}
