import { eventReadPermission, loggedEventKinds, readableEventKinds } from './event-access';

describe('event-access: who reads which event in the log', () => {
  it('maps each kind to the permission of its resource, by prefix', () => {
    expect(eventReadPermission('sale.completed')).toBe('sales.view');
    expect(eventReadPermission('sale.voided')).toBe('sales.view');
    expect(eventReadPermission('invoice.payment_recorded')).toBe('invoices.view');
    expect(eventReadPermission('return.approved')).toBe('returns.view');
    expect(eventReadPermission('customer.deleted')).toBe('customers.view');
    expect(eventReadPermission('item.updated')).toBe('items.view');
    expect(eventReadPermission('price.updated')).toBe('items.view');
    expect(eventReadPermission('prices.bulk_updated')).toBe('items.view');
    expect(eventReadPermission('inventory.low_stock')).toBe('inventory.view');
    expect(eventReadPermission('session.closed')).toBe('reports.sales');
  });

  it('shows nobody ping, test sends or a kind it does not know (fail closed)', () => {
    for (const type of ['ping', 'test:sale.completed', 'sales.completed', 'webhook.created', '.sale', '', 'sale']) {
      expect(eventReadPermission(type)).toBeNull();
    }
    expect(loggedEventKinds(['sale.completed', 'ping', 'customer.created'])).toEqual(['sale.completed', 'customer.created']);
  });

  it('keeps the kinds a reader holds the permission of', () => {
    const kinds = ['sale.completed', 'customer.created', 'session.opened', 'ping'];
    expect(readableEventKinds(kinds, (p) => p === 'customers.view')).toEqual(['customer.created']);
    expect(readableEventKinds(kinds, () => true)).toEqual(['sale.completed', 'customer.created', 'session.opened']);
    expect(readableEventKinds(kinds, () => false)).toEqual([]);
  });
});
