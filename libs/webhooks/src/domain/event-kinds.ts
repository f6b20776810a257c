/**
 * Subscriptions (decisions.md, Webhooks). Endpoints subscribe to a list of event kinds or to `*`
 * (everything). The kinds themselves are the event catalogue (application/event-catalogue.ts:
 * WEBHOOK_EVENT_KINDS derives from it). Outbox rows of another type are relayed to `*`
 * subscribers only.
 */
export const PING_EVENT = 'ping';

/** Whether an endpoint subscribed to `events` receives an event of `type`. */
export function subscribes(events: readonly string[], type: string): boolean {
  return events.includes('*') || events.includes(type);
}

/**
 * A test send (POST /webhooks/{id}/test) is an outbox row born published whose type carries this
 * prefix, so the event log, replays and the relay never take it for a real event of the shop. It
 * is sent with the bare type and `"test": true` at the top level of the body.
 */
const TEST_PREFIX = 'test:';

export function testEventType(type: string): string {
  return TEST_PREFIX + type;
}

/** The type a stored event is sent as, and whether it is a test send. */
export function sentEventType(storedType: string): { type: string; test: boolean } {
  return storedType.startsWith(TEST_PREFIX) ? { type: storedType.slice(TEST_PREFIX.length), test: true } : { type: storedType, test: false };
}
