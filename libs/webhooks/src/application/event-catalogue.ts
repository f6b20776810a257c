import { defineEvent, EventDefinition } from '@pos/platform';
import { InventoryLowStock, InventoryOutOfStock, ItemCreated, ItemDeleted, ItemUpdated, PriceUpdated } from '@pos/catalog';
import { CustomerCreated, CustomerDeleted, CustomerUpdated } from '@pos/customers';
import { PricesBulkUpdated } from '@pos/pricing';
import { ReturnApproved, ReturnCancelled, ReturnCreated, ReturnProcessed, ReturnRejected } from '@pos/returns';
import { InvoicePaymentRecorded, SaleCompleted, SaleVoided } from '@pos/sales';
import { SessionClosed, SessionOpened } from '@pos/sessions';
import { eventReadPermission } from '../domain/event-access';
import { PING_EVENT } from '../domain/event-kinds';
import * as sample from './event-samples';

/** What a `ping` (and a test send of `ping`) carries. */
export const Ping = defineEvent<{ endpoint_id: number; message: string }>(PING_EVENT);

/** One kind of event partners can receive: the body's `type`, what it means, and a realistic `data`. */
export interface EventKind<P extends object = object> {
  type: string;
  description: string;
  /** The kind of record `data` carries (sale, return, customer...). */
  resource: string;
  /** The permission under which the event log shows it (null: not in the log, e.g. ping). */
  permission: string | null;
  sample: P;
}

/** An entry from the context's own event definition: its type, and a sample of its payload type. */
function kind<P extends object>(def: EventDefinition<P>, resource: string, description: string, sample: P): EventKind<P> {
  return { type: def.type, description, resource, permission: eventReadPermission(def.type), sample };
}

/**
 * The event catalogue (decisions.md, Webhooks; README "Webhooks"): every kind an endpoint can
 * subscribe to, in one list. The definitions stay with the contexts that emit them (each writes
 * its events with ChangeLog.event in the transaction of the change); this list gives each a
 * description, its resource and a typed sample. WEBHOOK_EVENT_KINDS derives from it, and a spec
 * fails when a context defines an event that is not listed here.
 */
export const EVENT_CATALOGUE: readonly EventKind[] = [
  kind(SaleCompleted, 'sale', 'A sale was completed (checkout, or an offline sale uploaded). `data.sale` is the sale as GET /sales/{sale} shows it.', {
    sale: sample.SALE,
  }),
  kind(SaleVoided, 'sale', 'A sale was voided. `data.sale` is the voided sale; `refunded` the amount paid back; `reason` the void reason.', {
    sale: sample.VOIDED_SALE,
    refunded: 20,
    reason: 'Rung up twice',
  }),
  kind(
    InvoicePaymentRecorded,
    'invoice',
    'A later payment of an on-account invoice was recorded. `data.invoice` is the invoice after it (status, paid, balance, payments); `data.payment` the payment.',
    { invoice: sample.PAID_INVOICE, payment: sample.INVOICE_PAYMENT },
  ),
  kind(ReturnCreated, 'return', 'A return was created (pending, or processed at once). `data.return` is the return as GET /returns/{return} shows it.', {
    return: sample.RETURN_PENDING,
  }),
  kind(ReturnApproved, 'return', 'A pending return was approved. `data.return` is the approved return.', { return: sample.RETURN_APPROVED }),
  kind(ReturnRejected, 'return', 'A pending return was rejected; its units are free to be returned again. `data.return` is the rejected return.', {
    return: sample.RETURN_REJECTED,
  }),
  kind(ReturnCancelled, 'return', 'A pending or approved return was cancelled; its units are free again. `data.return` is the cancelled return.', {
    return: sample.RETURN_CANCELLED,
  }),
  kind(
    ReturnProcessed,
    'return',
    'A return was processed: refunds, credit note, stock. `data.return` is the processed return; `data.sale` the sale it changed (its new status).',
    { return: sample.RETURN_PROCESSED, sale: { id: 1042, receipt_number: 'R-MAIN-001042', status: 'partially_refunded' } },
  ),
  kind(SessionOpened, 'session', 'A cash session was opened. `data.session` is the session.', { session: sample.SESSION }),
  kind(SessionClosed, 'session', 'A cash session was closed (counted cash and discrepancy). `data.session` is the session.', {
    session: sample.CLOSED_SESSION,
  }),
  kind(InventoryLowStock, 'inventory', "An item's stock in a warehouse fell to its reorder level or below (still above zero).", sample.STOCK_LEVEL),
  kind(InventoryOutOfStock, 'inventory', "An item's stock in a warehouse fell to zero or below.", { ...sample.STOCK_LEVEL, quantity: 0 }),
  kind(CustomerCreated, 'customer', 'A customer was created. `data.customer` is the customer as GET /customers/{customer} shows it.', {
    customer: sample.CUSTOMER,
  }),
  kind(CustomerUpdated, 'customer', 'A customer was changed. `data.customer` is the customer after the change.', { customer: sample.CUSTOMER }),
  kind(
    CustomerDeleted,
    'customer',
    'A customer was deleted: personal data anonymised, the record kept for past sales. `data.customer` carries only the id; forget what you stored about them.',
    { customer: { id: 58 } },
  ),
  kind(ItemCreated, 'item', 'An item was created. `data.item` is the item as GET /integration/data/items shows it.', { item: sample.ITEM }),
  kind(ItemUpdated, 'item', 'An item was changed (PUT /items/{item}, including deactivation: is_active false). `data.item` is the item after the change.', {
    item: sample.ITEM,
  }),
  kind(ItemDeleted, 'item', 'An item was deleted (soft: it stays readable on old sales). `data.item` is the item, deleted_at set.', {
    item: { ...sample.ITEM, deleted_at: '2026-03-21T09:00:00.000Z' },
  }),
  kind(
    PriceUpdated,
    'price',
    "An item's base price was changed by a single edit (PUT /items/{item}); price_book_id null means the base price, which applies in every store without a price-book entry. Amounts in the base currency.",
    { item_id: 12, sku: 'ESP-1KG', name: 'Espresso beans 1 kg', price_book_id: null, old_price: 20, new_price: 21.5 },
  ),
  kind(PricesBulkUpdated, 'price', 'A bulk price job finished (POST /prices/bulk): how many items and price-book entries changed, and the ids of the items.', {
    job_id: 9,
    total: 120,
    items_updated: 100,
    price_book_entries_updated: 20,
    item_ids: [12, 13, 14],
  }),
  kind(Ping, 'webhook_endpoint', 'A check of the endpoint (POST /webhooks/{id}/ping). Sent only when asked for, whatever the endpoint subscribes to.', {
    endpoint_id: 1,
    message: 'Webhook endpoint check from the POS service.',
  }),
];

/** The kinds of event partners can subscribe to (an endpoint lists some of these, or `*`). */
export const WEBHOOK_EVENT_KINDS: readonly string[] = EVENT_CATALOGUE.map((k) => k.type);

/** What an endpoint may list in `events`. */
export const WEBHOOK_EVENT_SUBSCRIPTIONS: readonly string[] = ['*', ...WEBHOOK_EVENT_KINDS];

/** The catalogue entry of a kind (undefined: no such kind). */
export function eventKind(type: string): EventKind | undefined {
  return EVENT_CATALOGUE.find((k) => k.type === type);
}
