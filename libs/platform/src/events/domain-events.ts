import { Injectable, Logger, OnApplicationBootstrap, SetMetadata } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { DomainEventDefinition } from './event-definition';

const DOMAIN_EVENT_SUBSCRIBER = Symbol('DOMAIN_EVENT_SUBSCRIBER');

/** Marks a provider method as a subscriber of a domain event (runs inside the publisher's transaction). */
export const OnDomainEvent = <F>(def: DomainEventDefinition<F>): MethodDecorator => SetMetadata(DOMAIN_EVENT_SUBSCRIBER, def.name);

type Subscriber = (facts: unknown) => Promise<unknown>;

/**
 * In-process, synchronous domain events. Subscribers are found at boot (like job handlers);
 * `publish` awaits each in turn in the caller's async context, so they share its ambient
 * transaction: a subscriber that throws rolls the publisher's change back with it.
 */
@Injectable()
export class DomainEvents implements OnApplicationBootstrap {
  private readonly logger = new Logger('DomainEvents');
  private subscribers: Map<string, Subscriber[]> | null = null;

  constructor(
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  onApplicationBootstrap(): void {
    this.scan();
  }

  async publish<F>(def: DomainEventDefinition<F>, facts: F): Promise<void> {
    for (const subscriber of this.scan().get(def.name) ?? []) await subscriber(facts);
  }

  private scan(): Map<string, Subscriber[]> {
    if (this.subscribers) return this.subscribers;
    const found = new Map<string, Subscriber[]>();
    for (const wrapper of this.discovery.getProviders()) {
      const instance = wrapper.instance as Record<string, unknown> | undefined;
      if (!instance || typeof instance !== 'object' || wrapper.isNotMetatype) continue;
      for (const method of this.scanner.getAllMethodNames(Object.getPrototypeOf(instance) as object)) {
        const fn = instance[method] as (...args: unknown[]) => unknown;
        const name = this.reflector.get<string | undefined>(DOMAIN_EVENT_SUBSCRIBER, fn);
        if (!name) continue;
        const list = found.get(name) ?? [];
        list.push((facts) => Promise.resolve(fn.call(instance, facts)));
        found.set(name, list);
      }
    }
    this.subscribers = found;
    this.logger.log(`${[...found.values()].reduce((a, l) => a + l.length, 0)} domain event subscriber(s) registered`);
    return found;
  }
}
