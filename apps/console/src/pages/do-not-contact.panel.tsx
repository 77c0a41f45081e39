/**
 * "Do not contact" on a lead's page (docs/suppression-lists.md): puts the lead's email, phone or
 * email domain (the chosen list's kind) on a suppression list with POST /api/leads/:id/suppress,
 * so the person's next submission is rejected or flagged. Owners and admins only.
 */
import { useState } from 'react';
import { api, call } from '../api/client';
import { type Loaded, useAction, useLoad } from '../components/use-load';
import { Alert, Select } from '../components/ui';

export type SuppressionLists = Loaded<Array<{ id: string; name: string; kind: string }>>;

/**
 * The organization's suppression lists, loaded once for a lead's page (the "Do not contact" panel
 * and the erasure's optional list share them); nothing is requested when `enabled` is false.
 */
export function useSuppressionLists(enabled: boolean): SuppressionLists {
  return useLoad(
    async () =>
      enabled ? (await call(api.GET('/api/suppression-lists', { params: { query: { limit: 100 } } }))).data : [],
    `suppression-lists:${String(enabled)}`,
  );
}

export function DoNotContactPanel({ leadId, lists }: { leadId: string; lists: SuppressionLists }) {
  const action = useAction();
  const [chosen, setChosen] = useState('');
  const [done, setDone] = useState<string | null>(null);
  const options = (lists.data ?? []).map((list) => [list.id, `${list.name} (${list.kind})`] as const);
  const listId = chosen || options[0]?.[0] || '';
  const suppress = () =>
    void action.run(async () => {
      const answer = await call(
        api.POST('/api/leads/{id}/suppress', { params: { path: { id: leadId } }, body: { list_id: listId } }),
      );
      const name = lists.data?.find((list) => list.id === listId)?.name ?? listId;
      setDone(answer.data.added > 0 ? `Added to ${name}.` : `Already on ${name}.`);
    });
  if (options.length === 0) return null;
  return (
    <div className="card" aria-label="Do not contact">
      <div className="row">
        <Select
          label="Suppression list"
          name="list_id"
          options={options}
          value={listId}
          onChange={(event) => setChosen(event.currentTarget.value)}
        />
        <button type="button" className="danger" onClick={suppress} disabled={action.pending || listId === ''}>
          Do not contact
        </button>
      </div>
      <Alert>{action.error}</Alert>
      <Alert tone="success">{done}</Alert>
    </div>
  );
}
