/**
 * One error detail as a reader sees it. The API's detail messages usually start with the field's
 * key already ("current_password is not your current password", docs/api-conventions.md); the
 * field is put in front only when the message does not name it, so no form shows "email: email …".
 */
import type { ApiError } from '@leadstream/client';

export function detailText({ field, message }: ApiError['details'][number]): string {
  if (field === '' || message.startsWith(`${field} `) || message.startsWith(`${field}:`)) return message;
  return `${field}: ${message}`;
}

/** The API's message, then each detail, joined by dashes: the console's one-line error. */
export function apiErrorText(error: Pick<ApiError, 'message' | 'details'>): string {
  return [error.message, ...error.details.map(detailText)].join(' — ');
}
