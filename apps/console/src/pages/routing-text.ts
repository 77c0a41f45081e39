/** How a route reads: its reason and its destinations (the routing page and a lead's detail and timeline). */
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

/**
 * A lead's route as one sentence, the same on its details and in its timeline (lead.routed), so
 * the page never says "routed" in one place and "not routed" in the other.
 */
export function routeText(reason: Schemas['LeadRoute']['reason'], ruleName: string | null): string {
  switch (reason) {
    case 'rule':
      return `Routed by rule “${ruleName ?? 'unknown'}”`;
    case 'default':
      return 'Routed by the default route: no routing rule matched';
    case 'all_connections':
      return 'Routed to every enabled CRM connection: no routing rule matched, and there is no default route';
    case 'none':
      return 'Not routed: no routing rule matched, and there is no default route or enabled CRM connection';
  }
}

/** A destination as text: the connection's name (or id), then its owner and queue. */
export function destinationText(
  target: { connection_id: string; owner: string | null; queue: string | null },
  connections: readonly Connection[] | undefined,
): string {
  const name = connections?.find((connection) => connection.id === target.connection_id)?.name ?? target.connection_id;
  return [name, target.owner && `owner ${target.owner}`, target.queue && `queue ${target.queue}`]
    .filter(Boolean)
    .join(' · ');
}
