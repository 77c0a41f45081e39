/** A text field of a submitted form ('' when absent; files are not used in the console). */
export function formText(form: FormData, name: string): string {
  const value = form.get(name);
  return typeof value === 'string' ? value : '';
}
