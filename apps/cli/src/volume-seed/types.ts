import { LineRefund, RefundPart, ReturnCondition } from '@pos/returns';

/** What `seed:volume` is asked for (see volume-seeder.ts). */
export interface VolumeOptions {
  sales: number;
  items: number;
  customers: number;
  days: number;
  seed: number;
  /** The instant the seed runs at: the trading is the `days` days before its UTC day, and nothing is dated after it. */
  now: Date;
  /** Called after each sale written, with the sales written so far. */
  progress?: (sales: number) => void;
}

export interface Store {
  id: number;
  code: string;
  tz: string;
  /** The store's currency and its decimals (money has no default scale: a currency missing from the reference data stops the seed). */
  currency: string;
  decimals: number;
  inclusive: boolean;
  warehouseId: number;
  share: number;
  cashiers: number[];
  rates: Record<string, number>;
}

export interface Item {
  id: number;
  sku: string;
  name: string;
  categoryId: number | null;
  price: number;
  /** The item's price in the seeded price book (8% below the base price). */
  bookPrice: number;
  /** The price of the seeded single-item bundle (5% below the base price). */
  bundlePrice: number;
  cost: number;
  taxClass: string;
  serial: boolean;
}

/** The stores, customers and items the trading runs on (reference-data.ts). */
export interface Reference {
  stores: Store[];
  customers: number[];
  items: Item[];
  /** Item indexes by popularity rank. */
  order: number[];
  /** Cumulative popularity weights, by rank. */
  cumulative: number[];
  warehouses: number[];
  central: number;
  managerId: number;
}

/** A return decided when its sale is written, recorded on the day it is processed (in that day's session). */
export interface PlannedReturn {
  id: number;
  store: Store;
  sale: { id: number; receiptNumber: string; customerId: number | null; currency: string; invoiceId: number; lines: { id: number; qty: number }[] };
  at: Date;
  reason: string;
  lines: { saleItemId: number; item: Item; qty: number; wh: number; condition: ReturnCondition; restock: boolean; refund: LineRefund }[];
  refunds: RefundPart[];
}

/** A cashier session of a store's day, its cash following the sales and refunds. */
export interface Session {
  id: number;
  userId: number;
  cashSales: number;
  opening: number;
}

/** A stock movement, written and added to the running balance (stock-ledger.ts). */
export type MoveFn = (itemId: number, warehouseId: number, type: string, qty: number, at: Date, refType: string, refId: string, cost: number | null) => void;

export type Counts = Record<string, number>;

export const DAY = 86_400_000;
