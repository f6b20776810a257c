import { randomUUID } from 'node:crypto';
import { createPosClient, type DataOf, type PosClient } from '@pos/client';

/**
 * A till's day in five calls: log in, have a session, scan a barcode, check out, print the receipt.
 *
 *   import { runTerminalFlow } from './terminal-flow';
 *   const result = await runTerminalFlow('http://127.0.0.1:3000');
 *
 * Uses the demo cashier (cashier@example.com / password) in store 1 unless told otherwise.
 */
export interface TerminalFlowOptions {
  email?: string;
  password?: string;
  storeId?: number;
  /** What the scanner read; by default a barcode of an in-stock product of the store. */
  barcode?: string;
}

export interface TerminalFlowResult {
  cashier: string;
  sessionId: number;
  barcode: string;
  product: { id: number; name: string; price: number };
  /** The total the server priced before tendering (what the till shows). */
  total: number;
  sale: DataOf<'checkout'>;
  receipt: DataOf<'getReceipt'>;
}

export async function runTerminalFlow(baseUrl: string, options: TerminalFlowOptions = {}): Promise<TerminalFlowResult> {
  const storeId = options.storeId ?? 1;
  const pos = createPosClient({ baseUrl });

  // 1. Log in: the client keeps the bearer token for the calls that follow.
  const login = await pos.login({
    email: options.email ?? 'cashier@example.com',
    password: options.password ?? 'password',
    device_name: 'Example till',
    store_id: storeId,
  });

  // 2. A session: the till's open one, a suspended one resumed, or a new one with the float.
  let session = await pos.call('getCurrentSession', { params: { query: { store_id: storeId } } });
  if (session?.status === 'suspended') session = await pos.call('resumeSession', { params: { path: { session: session.id } } });
  session ??= await pos.call('openSession', { body: { store_id: storeId, opening_balance: 100 } });

  // 3. Scan: an exact barcode match comes first in the search.
  const barcode = options.barcode ?? (await aBarcodeOnTheShelf(pos, storeId));
  const [product] = await pos.call('searchPosProducts', { params: { query: { q: barcode, store_id: storeId } } });
  if (!product?.barcodes.includes(barcode)) throw new Error(`No product has the barcode ${barcode}`);

  // 4. Price the cart (the total to show), then check out in cash. The idempotency key makes a
  //    retry after a timeout or a 503 safe: the same key answers the same sale.
  const cart = await pos.call('priceCart', { body: { store_id: storeId, items: [{ id: product.id, qty: 1 }] } });
  const sale = await pos.call('checkout', {
    body: {
      store_id: storeId,
      idempotency_key: randomUUID(),
      items: [{ id: product.id, qty: 1 }],
      payments: [{ payment_method_code: 'cash', amount: cart.total, tendered: Math.ceil(cart.total) }],
      total_amount: cart.total,
    },
  });

  // 5. The receipt to print.
  const receipt = await pos.call('getReceipt', { params: { path: { sale: sale.id } } });

  return {
    cashier: login.user.name,
    sessionId: session.id,
    barcode,
    product: { id: product.id, name: product.name, price: product.price },
    total: cart.total,
    sale,
    receipt,
  };
}

/** Stands in for the scanner: the first product of the store with a barcode and stock. */
async function aBarcodeOnTheShelf(pos: PosClient, storeId: number): Promise<string> {
  const { data } = await pos.envelope('listPosProducts', { params: { query: { store_id: storeId, per_page: 100 } } });
  const product = data.find((p) => p.barcodes.length > 0 && p.stock.quantity > 0 && !p.is_serial_tracked);
  if (!product) throw new Error(`Store ${storeId} has no product with a barcode in stock`);
  return product.barcodes[0];
}
