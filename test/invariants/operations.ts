import fc from 'fast-check';
import { Actor, ACTORS, POOL, StoreKey, STORE_KEYS } from './harness';

/**
 * The operations a sequence is made of: plain data, so a shrunk counterexample prints as JSON
 * that pastes into a regression test. Picks (`pick`) choose among what exists when the operation
 * runs (the n-th sale of the sequence, modulo their number), so any sub-sequence still runs.
 */
export interface LineIntent {
  /** Index into POOL. */
  item: number;
  qty: number;
  /** Sold from the store's back room rather than its floor. */
  back?: boolean;
  /** Water sold by the case of 12 (ignores `item`). */
  byCase?: boolean;
  /** A manual line discount: percent (whole) or an amount in minor units. */
  discount?: { type: 'percent' | 'amount'; value: number };
}

export type Tender = 'cash_exact' | 'cash_over' | 'cash_tendered' | 'card' | 'split' | 'on_account' | 'split_account';
export type Customer = 'none' | 'member' | 'exempt';

export interface SaleOp {
  kind: 'sale';
  store: StoreKey;
  actor: Actor;
  lines: LineIntent[];
  cart?: { type: 'percent' | 'amount'; value: number };
  customer: Customer;
  /** tax_exempt: true with a reason. */
  exempt: boolean;
  tender: Tender;
  /** Share of the total the first tender of a split takes (percent) / cash over-tendered (minor units). */
  part: number;
  over: number;
  /** The same request sent again (an idempotent replay). */
  replay: boolean;
}

export interface OfflineSaleOp {
  kind: 'offline_sale';
  store: StoreKey;
  actor: Actor;
  lines: LineIntent[];
  tender: 'cash_exact' | 'cash_over' | 'card';
  over: number;
  secondsAgo: number;
}

export interface CashMoveOp {
  kind: 'cash_move';
  store: StoreKey;
  actor: Actor;
  type: 'cash_in' | 'cash_out';
  /** Minor units. */
  amount: number;
  offline: boolean;
}

export interface SessionOp {
  kind: 'session';
  store: StoreKey;
  actor: Actor;
  action: 'suspend' | 'resume' | 'close';
  /** Counted minus expected at a close (minor units). */
  delta: number;
  /** The float of the session opened after a close (minor units). */
  reopen: number;
}

export interface VoidOp {
  kind: 'void';
  pick: number;
}

export type Condition = 'resellable' | 'opened' | 'damaged' | 'defective' | 'spoiled';
export interface ReturnOp {
  kind: 'return';
  pick: number;
  /** Every returnable unit of every line, or the chosen lines. */
  all: boolean;
  lines: { pick: number; share: number; condition: Condition; restock?: boolean }[];
  flow: 'immediate' | 'approve_process' | 'reject' | 'cancel' | 'pending';
}

export interface InvoicePaymentOp {
  kind: 'invoice_payment';
  pick: number;
  part: 'full' | 'half' | 'over';
  method: 'cash' | 'card';
}

export interface StockOp {
  kind: 'stock';
  store: StoreKey;
  type: 'receive' | 'damage' | 'count' | 'transfer';
  item: number;
  qty: number;
  back: boolean;
}

export type Op = SaleOp | OfflineSaleOp | CashMoveOp | SessionOp | VoidOp | ReturnOp | InvoicePaymentOp | StockOp;

const store = fc.constantFrom<StoreKey>(...STORE_KEYS);
const actor = fc.constantFrom<Actor>(...ACTORS);

const line: fc.Arbitrary<LineIntent> = fc.record(
  {
    item: fc.nat(POOL.length - 1),
    qty: fc.integer({ min: 1, max: 4 }),
    back: fc.boolean(),
    byCase: fc.constantFrom(false, false, false, false, false, false, false, true),
    discount: fc.option(
      fc.oneof(
        fc.record({ type: fc.constant<'percent'>('percent'), value: fc.integer({ min: 1, max: 12 }) }),
        fc.record({ type: fc.constant<'amount'>('amount'), value: fc.integer({ min: 1, max: 12 }) }),
      ),
      { nil: undefined, freq: 3 },
    ),
  },
  { requiredKeys: ['item', 'qty'] },
);

const sale: fc.Arbitrary<SaleOp> = fc.record({
  kind: fc.constant<'sale'>('sale'),
  store,
  actor,
  lines: fc.array(line, { minLength: 1, maxLength: 4 }),
  cart: fc.option(
    fc.oneof(
      fc.record({ type: fc.constant<'percent'>('percent'), value: fc.integer({ min: 1, max: 10 }) }),
      fc.record({ type: fc.constant<'amount'>('amount'), value: fc.integer({ min: 1, max: 150 }) }),
    ),
    { nil: undefined, freq: 3 },
  ),
  customer: fc.constantFrom<Customer>('none', 'none', 'member', 'exempt'),
  exempt: fc.constantFrom(false, false, false, true),
  tender: fc.constantFrom<Tender>('cash_exact', 'cash_over', 'cash_tendered', 'card', 'split', 'on_account', 'split_account'),
  part: fc.integer({ min: 1, max: 99 }),
  over: fc.integer({ min: 1, max: 2000 }),
  replay: fc.constantFrom(false, false, false, true),
});

const offlineSale: fc.Arbitrary<OfflineSaleOp> = fc.record({
  kind: fc.constant<'offline_sale'>('offline_sale'),
  store,
  actor,
  lines: fc.array(line, { minLength: 1, maxLength: 3 }),
  tender: fc.constantFrom<'cash_exact' | 'cash_over' | 'card'>('cash_exact', 'cash_over', 'card'),
  over: fc.integer({ min: 1, max: 2000 }),
  // 120 s: before the sequence's sessions opened (a sale no drawer holds); 0-2 s: most likely in one.
  secondsAgo: fc.constantFrom(0, 1, 2, 120),
});

const cashMove: fc.Arbitrary<CashMoveOp> = fc.record({
  kind: fc.constant<'cash_move'>('cash_move'),
  store,
  actor,
  type: fc.constantFrom<'cash_in' | 'cash_out'>('cash_in', 'cash_out'),
  amount: fc.integer({ min: 1, max: 5000 }),
  offline: fc.boolean(),
});

const session: fc.Arbitrary<SessionOp> = fc.record({
  kind: fc.constant<'session'>('session'),
  store,
  actor,
  action: fc.constantFrom<SessionOp['action']>('suspend', 'resume', 'resume', 'close'),
  delta: fc.integer({ min: -500, max: 500 }),
  reopen: fc.integer({ min: 0, max: 20000 }),
});

const voidOp: fc.Arbitrary<VoidOp> = fc.record({ kind: fc.constant<'void'>('void'), pick: fc.nat(50) });

const returnOp: fc.Arbitrary<ReturnOp> = fc.record({
  kind: fc.constant<'return'>('return'),
  pick: fc.nat(50),
  all: fc.boolean(),
  lines: fc.array(
    fc.record(
      {
        pick: fc.nat(5),
        share: fc.integer({ min: 1, max: 100 }),
        condition: fc.constantFrom<Condition>('resellable', 'resellable', 'opened', 'damaged', 'defective', 'spoiled'),
        restock: fc.option(fc.boolean(), { nil: undefined }),
      },
      { requiredKeys: ['pick', 'share', 'condition'] },
    ),
    { minLength: 1, maxLength: 3 },
  ),
  flow: fc.constantFrom<ReturnOp['flow']>('immediate', 'immediate', 'approve_process', 'reject', 'cancel', 'pending'),
});

const invoicePayment: fc.Arbitrary<InvoicePaymentOp> = fc.record({
  kind: fc.constant<'invoice_payment'>('invoice_payment'),
  pick: fc.nat(20),
  part: fc.constantFrom<InvoicePaymentOp['part']>('full', 'half', 'half', 'over'),
  method: fc.constantFrom<'cash' | 'card'>('cash', 'card'),
});

const stock: fc.Arbitrary<StockOp> = fc.record({
  kind: fc.constant<'stock'>('stock'),
  store,
  type: fc.constantFrom<StockOp['type']>('receive', 'damage', 'count', 'transfer'),
  item: fc.nat(POOL.length - 1),
  qty: fc.integer({ min: 0, max: 30 }),
  back: fc.boolean(),
});

export const opArb: fc.Arbitrary<Op> = fc.oneof(
  { arbitrary: sale, weight: 10 },
  { arbitrary: offlineSale, weight: 2 },
  { arbitrary: cashMove, weight: 2 },
  { arbitrary: session, weight: 2 },
  { arbitrary: voidOp, weight: 2 },
  { arbitrary: returnOp, weight: 4 },
  { arbitrary: invoicePayment, weight: 2 },
  { arbitrary: stock, weight: 2 },
);

/**
 * A sequence of `length` operations. Each slot is an option, so shrinking removes operations
 * (a slot shrinks to null first) as well as simplifying them, while generation keeps the length.
 */
export const sequenceArb = (length: number): fc.Arbitrary<Op[]> =>
  fc.array(fc.option(opArb, { nil: null, freq: 1000 }), { minLength: length, maxLength: length }).map((ops) => ops.filter((op): op is Op => op !== null));
