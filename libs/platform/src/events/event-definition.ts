/**
 * Two kinds of events, declared once by the context that owns them, like job definitions:
 *
 * - Integration events (`defineEvent`): the public, JSON-shaped facts partners receive as
 *   webhooks. `ChangeLog.event(def, payload)` writes them to the outbox in the caller's
 *   transaction; the webhook relay delivers them later. Their `type` is the webhook kind.
 * - Domain events (`defineDomainEvent`): typed facts in minor units for other contexts in this
 *   process (e.g. report rollups). `DomainEvents.publish(def, facts)` runs every subscriber
 *   inside the caller's transaction, so a subscriber's writes commit or roll back with the change.
 */
export interface EventDefinition<P extends object> {
  readonly type: string;
  /** Phantom field carrying the payload type. */
  readonly __payload?: P;
}

export interface DomainEventDefinition<F> {
  readonly name: string;
  readonly __facts?: F;
}

const integrationEvents = new Map<string, EventDefinition<object>>();
const domainEvents = new Map<string, DomainEventDefinition<unknown>>();

export function defineEvent<P extends object>(type: string): EventDefinition<P> {
  if (integrationEvents.has(type)) throw new Error(`Event ${type} is defined twice`);
  const def: EventDefinition<P> = { type };
  integrationEvents.set(type, def);
  return def;
}

/** Every integration event type declared by the contexts loaded in this process. */
export function allEventTypes(): string[] {
  return [...integrationEvents.keys()].sort();
}

export function defineDomainEvent<F>(name: string): DomainEventDefinition<F> {
  if (domainEvents.has(name)) throw new Error(`Domain event ${name} is defined twice`);
  const def: DomainEventDefinition<F> = { name };
  domainEvents.set(name, def as DomainEventDefinition<unknown>);
  return def;
}
