import { allEventTypes, defineEvent } from '@pos/platform';
import { sentEventType, subscribes, testEventType } from '../domain/event-kinds';
import { deliveryBody } from '../domain/signature';
import { EVENT_CATALOGUE, eventKind, WEBHOOK_EVENT_KINDS, WEBHOOK_EVENT_SUBSCRIPTIONS } from './event-catalogue';
import { WebhookTestService } from './webhook-test.service';

describe('event catalogue', () => {
  it('lists every integration event a context defines, once, and nothing that is not defined', () => {
    const listed = EVENT_CATALOGUE.map((k) => k.type);
    expect(new Set(listed).size).toBe(listed.length);
    expect([...listed].sort()).toEqual(allEventTypes());
    expect(WEBHOOK_EVENT_KINDS).toEqual(listed);
    expect(WEBHOOK_EVENT_SUBSCRIPTIONS).toEqual(['*', ...listed]);
  });

  it('gives each kind a description, a resource, the read permission of the event log and a JSON sample', () => {
    for (const k of EVENT_CATALOGUE) {
      expect(k.description.length).toBeGreaterThan(20);
      expect(k.resource).toMatch(/^[a-z_]+$/);
      expect(JSON.parse(JSON.stringify(k.sample))).toEqual(k.sample);
      if (k.type === 'ping') expect(k.permission).toBeNull();
      else expect(k.permission).toMatch(/^[a-z_]+\.view$|^reports\.sales$/);
    }
    expect(eventKind('customer.deleted')?.sample).toEqual({ customer: { id: 58 } });
    expect(eventKind('sale.exploded')).toBeUndefined();
  });

  it('marks a test send so that no subscription takes it for a real event, and sends it with the bare type and test: true', () => {
    const stored = testEventType('sale.completed');
    expect(subscribes(['sale.completed'], stored)).toBe(false);
    expect(sentEventType(stored)).toEqual({ type: 'sale.completed', test: true });
    expect(sentEventType('sale.completed')).toEqual({ type: 'sale.completed', test: false });
    const at = new Date('2026-03-14T10:21:07.000Z');
    expect(JSON.parse(deliveryBody({ id: 7, type: 'sale.completed', test: true, createdAt: at, payloadJson: '{"a":1}' }))).toEqual({
      id: 7,
      type: 'sale.completed',
      created_at: at.toISOString(),
      data: { a: 1 },
      test: true,
    });
    expect(deliveryBody({ id: 7, type: 'x', createdAt: at, payloadJson: '{}' })).not.toContain('test');
  });

  // last: it defines an event for the rest of this file
  it('refuses to boot when a context defines an event the catalogue does not list', () => {
    const service = new (WebhookTestService as unknown as new (...deps: unknown[]) => WebhookTestService)(null, null, null, null, null);
    expect(() => service.onModuleInit()).not.toThrow();
    defineEvent<{ n: number }>('zz.unlisted');
    expect(() => service.onModuleInit()).toThrow(/zz\.unlisted/);
  });
});
