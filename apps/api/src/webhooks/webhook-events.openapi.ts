import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { EVENT_CATALOGUE, WEBHOOK_EVENT_KINDS } from '@pos/webhooks';
import { Item } from '../catalog/catalog.responses';
import { Customer } from '../customers/customers.responses';
import { ApiView, defineView, s, Schema } from '../http/openapi';
import { ReturnDetail } from '../returns/returns.responses';
import { InvoiceDetail, InvoicePayment, SaleDetail } from '../sales/sales.responses';
import { Session } from '../sessions/sessions.responses';

/**
 * The `data` of each event kind, as OpenAPI components named `<Kind>EventData` (sale.completed:
 * SaleCompletedEventData), built from the same response views the API serves for the resource.
 * A kind of the catalogue without a schema here fails at boot (below), so none goes undocumented.
 */
const stockLevel = {
  item_id: s.int(),
  sku: s.string(),
  name: s.string(),
  warehouse_id: s.int(),
  quantity: s.int('Stock in the warehouse after the change (base units)'),
  reorder_level: s.int(),
};

const DATA: Record<string, Record<string, Schema | ApiView>> = {
  'sale.completed': { sale: SaleDetail },
  'sale.voided': { sale: SaleDetail, refunded: s.money('The amount paid back'), reason: s.nullable(s.string()) },
  'invoice.payment_recorded': { invoice: InvoiceDetail, payment: InvoicePayment },
  'return.created': { return: ReturnDetail },
  'return.approved': { return: ReturnDetail },
  'return.rejected': { return: ReturnDetail },
  'return.cancelled': { return: ReturnDetail },
  'return.processed': {
    return: ReturnDetail,
    sale: s.object({ id: s.int(), receipt_number: s.string(), status: s.string('The sale status after the return') }),
  },
  'session.opened': { session: Session },
  'session.closed': { session: Session },
  'inventory.low_stock': stockLevel,
  'inventory.out_of_stock': stockLevel,
  'customer.created': { customer: Customer },
  'customer.updated': { customer: Customer },
  'customer.deleted': { customer: s.object({ id: s.int() }, { description: 'Only the id: the personal data is anonymised' }) },
  'item.created': { item: Item },
  'item.updated': { item: Item },
  'item.deleted': { item: Item },
  'price.updated': {
    item_id: s.int(),
    sku: s.string(),
    name: s.string(),
    price_book_id: s.nullable(s.int('Null: the base price (applies in every store without a price-book entry for the item)')),
    old_price: s.money('In the base currency'),
    new_price: s.money('In the base currency'),
  },
  'prices.bulk_updated': {
    job_id: s.int(),
    total: s.int('Rows in the job'),
    items_updated: s.int(),
    price_book_entries_updated: s.int(),
    item_ids: s.array(s.int()),
  },
  ping: { endpoint_id: s.int(), message: s.string() },
};

const pascal = (type: string) =>
  type
    .split(/[._]/)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

const missing = WEBHOOK_EVENT_KINDS.filter((k) => !DATA[k]);
if (missing.length) throw new Error(`Webhook event kinds without a payload schema (webhook-events.openapi.ts): ${missing.join(', ')}`);

/** `data` of each event kind, by kind. */
export const EVENT_DATA_VIEWS: ReadonlyMap<string, ApiView> = new Map(WEBHOOK_EVENT_KINDS.map((k) => [k, defineView(`${pascal(k)}EventData`, DATA[k])]));

/** One entry of GET /webhooks/event-types per kind, its `sample` typed by the kind's data schema. */
const EVENT_TYPE_VIEWS = EVENT_CATALOGUE.map((k) =>
  defineView(`${pascal(k.type)}EventType`, {
    type: s.enum([k.type]),
    description: s.string(),
    resource: s.string('The kind of record the event carries (sale, invoice, return, session, inventory, customer, item, price, webhook_endpoint)'),
    permission: s.nullable(s.string('The permission under which GET /integration/events shows it (null: never there, e.g. ping)')),
    sample: EVENT_DATA_VIEWS.get(k.type)!,
  }),
);

/** `data` of GET /webhooks/event-types: every kind, each with its own schema (discriminated by `type`). */
export const EVENT_TYPES_SCHEMA: SchemaObject = s.array({
  oneOf: EVENT_TYPE_VIEWS.map((v) => v.ref),
  discriminator: { propertyName: 'type', mapping: Object.fromEntries(EVENT_CATALOGUE.map((k, i) => [k.type, EVENT_TYPE_VIEWS[i].ref.$ref])) },
});
