/** How a route reads: its reason and its destinations (the routing page and a lead's detail). */
import type { Schemas } from '@leadstream/client';

export type Connection = Schemas['CrmConnection'];

const REASONS: Record<Schemas['LeadRoute']['reason'], string> = {
  rule: 'a rule matched',
  default: 'no rule matched: the default route',
  all_connections: 'no rule matched and no default route: every enabled connection',
  none: 'not routed',
};

export function routeReason(reason: Schemas['LeadRoute']['reason']): string {
  return REASONS[reason];
}

/** A destination as text: the connection's name (or id), then its owner and queue. */
export function destinationText(target: { connection_id: string; owner: string | null; queue: string | null }, connections: readonly Connection[] | undefined): string {
  const name = connections?.find((connection) => connection.id === target.connection_id)?.name ?? target.connection_id;
  return [name, target.owner && `owner ${target.owner}`, target.queue && `queue ${target.queue}`].filter(Boolean).join(' · ');
}

