/**
 * The kinds of event partners can subscribe to (decisions.md, Webhooks). Endpoints subscribe to
 * a list of these or to `*` (everything). Outbox rows of another type are relayed to `*`
 * subscribers only. When ChangeLog gets typed event definitions, this list is derived from them.
 */
export const WEBHOOK_EVENT_KINDS = [
  'sale.completed',
  'sale.voided',
  'return.created',
  'return.processed',
  'session.opened',
  'session.closed',
  'inventory.low_stock',
  'inventory.out_of_stock',
  'customer.created',
  'customer.updated',
  'prices.bulk_updated',
  'ping',
] as const;

export type WebhookEventKind = (typeof WEBHOOK_EVENT_KINDS)[number];

/** What an endpoint may list in `events`. */
export const WEBHOOK_EVENT_SUBSCRIPTIONS = ['*', ...WEBHOOK_EVENT_KINDS] as const;

export const PING_EVENT: WebhookEventKind = 'ping';

/** Whether an endpoint subscribed to `events` receives an event of `type`. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}
