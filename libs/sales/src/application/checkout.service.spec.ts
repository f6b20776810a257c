import { Clock, ForbiddenError, RuleViolationError } from '@pos/kernel';
import type { Principal } from '@pos/identity';
import type { CustomerService } from '@pos/customers';
import type { ItemPriceHistory, ItemRecord, PaymentMethodRecord, StockLedger, StockLine, StoreContext, StoreRecord } from '@pos/catalog';
import type {
  AppConfig,
  AuditLog,
  ChangeLog,
  DomainEvents,
  EventDefinition,
  IdempotentOutcome,
  IdempotentRequest,
  IdempotentRequests,
  Metrics,
} from '@pos/platform';
import { CartRequest, DiscountApprovalService, priceCart, PricedCartResult, PricingService } from '@pos/pricing';
import type { SessionService } from '@pos/sessions';
import { CheckoutCompletion } from './checkout-completion';
import { CheckoutDiscounts } from './checkout-discounts';
import { CheckoutLines } from './checkout-lines';
import { CheckoutOfflinePrices } from './checkout-offline-prices';
import { CheckoutPayments } from './checkout-payments';
import { CheckoutPreparation } from './checkout-preparation';
import { CheckoutRecords } from './checkout-records';
import { CheckoutInput, CheckoutService } from './checkout.service';
import { InvoiceRepository } from './invoice.ports';
import { SaleReviewRepository } from './sale-review.ports';
import { InvoiceRecord, SaleItemRecord, SalePaymentRecord, SaleRecord, SaleRepository } from './sale.ports';
import { SaleViews } from './sale.views';

/**
 * The checkout pipeline with its real steps over fakes of the ports they use: sales and invoices
 * in arrays, the engine's own pricing of a fixed catalog, a ledger, sessions and an idempotency
 * store in memory. Every fake writes to one journal, so the order of the pipeline is visible.
 */
const NOW = new Date('2026-03-02T10:15:30.250Z');
const STORE = {
  id: 1,
  code: 'S1',
  name: 'Main',
  currencyCode: 'USD',
  pricesIncludeTax: false,
  defaultWarehouseId: 10,
  allowNegativeStock: false,
} as StoreRecord;
const ITEMS = new Map<number, ItemRecord>(
  [
    { id: 1, sku: 'BEV-1', name: 'Cola', basePrice: 250, cost: 100, isSerialTracked: false },
    { id: 2, sku: 'SNK-1', name: 'Chips', basePrice: 400, cost: 150, isSerialTracked: false },
  ].map((i) => [i.id, i as ItemRecord]),
);
const METHODS = [
  { id: 1, code: 'cash', type: 'cash' },
  { id: 2, code: 'card', type: 'card' },
] as PaymentMethodRecord[];
const CASHIER = { userId: 7, stores: [1], discountLimits: { maxPercentBp: 1000, maxAmount: 500 } } as unknown as Principal;
const APPROVED = 'manager-token';

class World {
  journal: string[] = [];
  sales: SaleRecord[] = [];
  items: SaleItemRecord[] = [];
  payments: SalePaymentRecord[] = [];
  invoices: InvoiceRecord[] = [];
  sold: StockLine[][] = [];
  audits: { action: string; after?: unknown }[] = [];
  events: string[] = [];
  counted: { mode: string; total: number }[] = [];
  reviews: string[] = [];
  keys = new Map<string, { fingerprint: string; body: unknown }>();
  counter = 0;

  service(): CheckoutService {
    const j = (entry: string) => this.journal.push(entry);
    const sales = {
      nextReceiptNumber: async () => (j('receipt number'), ++this.counter),
      insertSale: async (s: Omit<SaleRecord, 'id'>) => (j('sale'), this.push(this.sales, s)),
      insertItems: async (rows: Omit<SaleItemRecord, 'id'>[]) => (j('lines'), rows.map((r) => this.push(this.items, r))),
      insertPayments: async (rows: Omit<SalePaymentRecord, 'id'>[]) => (j('payments'), rows.map((r) => this.push(this.payments, r))),
    } as unknown as SaleRepository;
    const invoices = { insertInvoice: async (i: Omit<InvoiceRecord, 'id'>) => (j('invoice'), this.push(this.invoices, i)) } as unknown as InvoiceRepository;
    const stores = {
      resolve: async () => STORE,
      serves: async (warehouseId: number) => warehouseId === 10 || warehouseId === 11,
      paymentMethods: async () => METHODS,
      names: async () => ({ stores: new Map([[1, 'Main']]), warehouses: new Map([[10, 'Back room']]) }),
      store: async (id: number) => (id === 1 ? { id: 1, name: 'Main' } : null),
      warehouse: async (id: number) => (id === 10 ? { id: 10, name: 'Back room' } : null),
    } as unknown as StoreContext;
    const ledger = {
      checkSale: async () => undefined,
      sell: async (_ref: unknown, lines: StockLine[]) => (j('stock'), void this.sold.push(lines)),
    } as unknown as StockLedger;
    const pricing = { price: async (_p: Principal, req: CartRequest) => priced(req) } as unknown as PricingService;
    const approvals = {
      verifyUses: (_p: Principal, uses: { token?: string }[]) => uses.map((u) => (u.token === APPROVED ? 99 : null)),
    } as unknown as DiscountApprovalService;
    const customers = { pricingProfile: async () => ({ paymentTermsDays: 14 }) } as unknown as CustomerService;
    const audit = { record: async (a: { action: string; after?: unknown }) => (j('audit'), void this.audits.push(a)) } as unknown as AuditLog;
    const changes = { event: async (def: EventDefinition<object>) => (j('event'), void this.events.push(def.type)) } as unknown as ChangeLog;
    const domainEvents = { publish: async () => void j('facts') } as unknown as DomainEvents;
    const views = new SaleViews({ find: async () => null } as unknown as SaleRepository, invoices, stores, { of: async () => 2 } as never);
    const sessions = {
      requireOpen: async () => (j('session'), { id: 5 }),
      sessionAt: async () => (j('session'), null),
      status: async () => ({ can_sell: true, session: { id: 5 } }),
    } as unknown as SessionService;
    const clock = { now: () => NOW } as Clock;
    const reviews = {
      create: async (r: { reason: string }) => (j('review'), this.reviews.push(r.reason), { ...r, id: this.reviews.length }),
    } as unknown as SaleReviewRepository;
    // No price the terminal typed in these carts: the catalog's price history is never asked.
    const offline = new CheckoutOfflinePrices(pricing, {} as ItemPriceHistory, approvals, reviews, audit, clock);
    const lines = new CheckoutLines(stores, ledger);
    const preparation = new CheckoutPreparation(stores, pricing, new CheckoutDiscounts(approvals), lines, new CheckoutPayments(stores), customers, offline);
    const metrics = { saleRecorded: (mode: string, _c: string, total: number) => void this.counted.push({ mode, total }) } as unknown as Metrics;
    return new CheckoutService(
      this.idempotency(),
      sessions,
      preparation,
      new CheckoutRecords(sales, invoices),
      lines,
      new CheckoutCompletion(audit, offline, views, changes, domainEvents),
      clock,
      metrics,
      { sync: { offlineMaxAgeDays: 30, offlineClockSkewSeconds: 300 } } as AppConfig,
    );
  }

  /** Exactly once by key: a stored answer is replayed for the same fingerprint; a failed work leaves nothing (its transaction). */
  private idempotency(): IdempotentRequests {
    return {
      run: async (r: IdempotentRequest, status: number, work: () => Promise<unknown>): Promise<IdempotentOutcome> => {
        const known = this.keys.get(r.key);
        if (known?.fingerprint === r.fingerprint) return { replayed: true, status, body: known.body };
        const before = this.snapshot();
        try {
          const body = await work();
          this.keys.set(r.key, { fingerprint: r.fingerprint, body });
          return { replayed: false, status, body };
        } catch (e) {
          this.restore(before);
          throw e;
        }
      },
    } as unknown as IdempotentRequests;
  }

  private push<T extends { id: number }>(rows: T[], row: Omit<T, 'id'>): T {
    const saved = { ...row, id: rows.length + 1 } as T;
    rows.push(saved);
    return saved;
  }

  private snapshot() {
    return [this.sales, this.items, this.payments, this.invoices, this.sold].map((a) => a.length);
  }

  private restore(lengths: number[]) {
    [this.sales, this.items, this.payments, this.invoices, this.sold].forEach((a, i) => (a.length = lengths[i]));
  }
}

/** The engine's pricing of the fixed catalog (no books, rules or tax): what PricingService answers. */
function priced(req: CartRequest): PricedCartResult {
  const cart = priceCart({
    context: { storeId: STORE.id, customerGroupId: null, at: NOW, timeZone: 'UTC', pricesIncludeTax: false, taxExempt: false },
    lines: req.lines.map((l, i) => ({
      key: String(i).padStart(3, '0'),
      itemId: l.itemId,
      categoryId: null,
      quantity: l.quantity,
      basePrice: ITEMS.get(l.itemId)!.basePrice,
      priceBooks: [],
      taxRateBp: 0,
      manualDiscount: l.discount,
    })),
    rules: [],
    bundles: [],
    cartDiscount: req.cartDiscount,
  });
  return {
    store: STORE,
    decimals: 2,
    customerId: req.customerId ?? null,
    customerGroupId: null,
    taxExempt: false,
    items: ITEMS,
    units: req.lines.map(() => null),
    serverUnitPrices: req.lines.map((l) => ITEMS.get(l.itemId)!.basePrice),
    cart,
  };
}

const cart = (extra: Partial<CheckoutInput> = {}): CheckoutInput => ({
  storeId: 1,
  idempotencyKey: 'key-1',
  items: [
    { itemId: 1, qty: 2 },
    { itemId: 2, qty: 1 },
  ],
  payments: [{ code: 'cash', amount: 900, tendered: 1000 }],
  totalAmount: 900,
  ...extra,
});

describe('CheckoutService (the pipeline over fakes of its ports)', () => {
  let world: World;
  let checkout: CheckoutService;

  beforeEach(() => {
    world = new World();
    checkout = world.service();
  });

  it('sells a cart: checks, then the records, the stock and the events, in the order of the statement budget', async () => {
    const outcome = await checkout.checkout(CASHIER, cart(), 'fp-1');
    expect(outcome).toMatchObject({ replayed: false, status: 201 });
    expect(world.journal).toEqual(['session', 'receipt number', 'sale', 'lines', 'payments', 'invoice', 'stock', 'event', 'facts']);
    const [sale] = world.sales;
    expect(sale).toMatchObject({ receiptNumber: 'S1-000001', sessionId: 5, userId: 7, warehouseId: 10, totalAmount: 900, paidAmount: 900, changeAmount: 100 });
    // whole seconds: what a DATETIME column gives back
    expect(sale.createdAt.toISOString()).toBe('2026-03-02T10:15:30.000Z');
    expect(world.items.map((l) => [l.lineNo, l.itemId, l.quantity, l.total, l.warehouseId])).toEqual([
      [0, 1, 2, 500, 10],
      [1, 2, 1, 400, 10],
    ]);
    expect(world.payments).toMatchObject([{ methodCode: 'cash', amount: 900, tendered: 1000, changeAmount: 100 }]);
    expect(world.invoices).toMatchObject([{ number: 'INV-S1-000001', status: 'paid', amount: 900, balance: 0 }]);
    expect(world.sold[0].map((l) => [l.itemId, l.warehouseId, l.quantity])).toEqual([
      [1, 10, 2],
      [2, 10, 1],
    ]);
    expect(world.events).toEqual(['sale.completed']);
    expect(outcome.body).toMatchObject({
      receipt_number: 'S1-000001',
      total_amount: 9,
      change_amount: 1,
      items: [{}, {}],
      invoice: { number: 'INV-S1-000001' },
    });
    expect(world.counted).toEqual([{ mode: 'online', total: 900 }]);
    expect(world.audits).toEqual([]);
  });

  it('refuses a tender that does not cover the total (400 by field) and writes nothing', async () => {
    const short = checkout.checkout(CASHIER, cart({ payments: [{ code: 'card', amount: 500 }] }), 'fp-1');
    await expect(short).rejects.toBeInstanceOf(RuleViolationError);
    await expect(short).rejects.toMatchObject({ code: 'checkout_invalid', fields: { payments: ['The payments (5.00) do not cover the total (9.00).'] } });
    const unknown = checkout.checkout(CASHIER, cart({ payments: [{ code: 'cheque', amount: 900 }] }), 'fp-2');
    await expect(unknown).rejects.toMatchObject({
      fields: { 'payments.0.payment_method_code': ['The selected payment method is not available in this store.'] },
    });
    expect(world.journal).toEqual(['session', 'session']);
    expect([world.sales, world.sold, world.counted]).toEqual([[], [], []]);
  });

  it('reports line rules before a wrong total: a warehouse that does not serve the store', async () => {
    const input = cart({
      items: [
        { itemId: 1, qty: 2, warehouseId: 12 },
        { itemId: 2, qty: 1 },
      ],
      totalAmount: 1,
    });
    await expect(checkout.checkout(CASHIER, input, 'fp-1')).rejects.toMatchObject({
      code: 'checkout_invalid',
      fields: { 'items.0.warehouse_id': ['The selected warehouse does not serve this store.'] },
    });
    expect(world.sales).toEqual([]);
  });

  it("needs a manager's approval for a discount beyond the cashier's limits (403), and records who gave it", async () => {
    // 20% off a 5.00 line: beyond the cashier's 10%
    const discounted = cart({
      items: [
        { itemId: 1, qty: 2, discount: { type: 'percent', valueBp: 2000 } },
        { itemId: 2, qty: 1 },
      ],
      totalAmount: 800,
    });
    const refused = checkout.checkout(CASHIER, { ...discounted, payments: [{ code: 'card', amount: 800 }] }, 'fp-1');
    await expect(refused).rejects.toBeInstanceOf(ForbiddenError);
    await expect(refused).rejects.toMatchObject({ code: 'discount_requires_approval' });
    expect(world.sales).toEqual([]);

    const approved = { ...discounted, idempotencyKey: 'key-2', payments: [{ code: 'card', amount: 800 }] };
    approved.items[0] = { ...approved.items[0], discountApprovalToken: APPROVED, discountReason: 'dented' };
    await checkout.checkout(CASHIER, approved, 'fp-2');
    expect(world.items[0]).toMatchObject({ manualDiscount: 100, discountApprovedBy: 99, discountReason: 'dented' });
    expect(world.audits).toMatchObject([{ action: 'sale.manual_pricing', after: { lines: [{ line: 0, manual_discount: 100, approved_by: 99 }] } }]);
  });

  it('replays a repeated request with its first answer, writing and counting the sale once', async () => {
    const first = await checkout.checkout(CASHIER, cart(), 'fp-1');
    const again = await checkout.checkout(CASHIER, cart(), 'fp-1');
    expect(again).toEqual({ ...first, replayed: true });
    expect(world.sales).toHaveLength(1);
    expect(world.sold).toHaveLength(1);
    expect(world.counted).toHaveLength(1);
    expect(world.counter).toBe(1);
  });

  it("records an offline sale's discount beyond the limits instead of refusing it, flagged for review", async () => {
    const input = cart({
      items: [
        { itemId: 1, qty: 2, discount: { type: 'percent', valueBp: 2000 } },
        { itemId: 2, qty: 1 },
      ],
      totalAmount: 800,
    });
    const times = { createdAt: new Date('2026-03-01T18:00:00.700Z'), syncedAt: NOW };
    const outcome = await checkout.recordOffline(CASHIER, { ...input, payments: [{ code: 'cash', amount: 800 }] }, 'fp-1', times);
    expect(outcome.replayed).toBe(false);
    expect(world.journal).toEqual(['session', 'receipt number', 'sale', 'lines', 'payments', 'invoice', 'stock', 'audit', 'review', 'audit', 'event', 'facts']);
    expect(world.sales[0]).toMatchObject({ sessionId: null, createdAt: new Date('2026-03-01T18:00:00Z'), syncedAt: new Date('2026-03-02T10:15:30Z') });
    expect(world.reviews).toEqual(['offline_discount_beyond_limits']);
    expect(world.audits.map((a) => a.action)).toEqual(['sale.manual_pricing', 'sale.offline_price']);
    expect(world.counted).toEqual([{ mode: 'offline', total: 800 }]);
  });

  it('validates a cart without tenders: priced, the whole total due, nothing written', async () => {
    const quote = await checkout.validate(CASHIER, cart({ payments: [], totalAmount: undefined }));
    expect(quote).toMatchObject({ valid: true, can_sell: true, session_id: 5, payments: [], change: 0, balance_due: 9 });
    expect(world.journal).toEqual([]);
  });
});
