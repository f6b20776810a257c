import { Findings } from './known-defects';
import { Answer, call, major, minor, POOL, StoreWorld, World } from './harness';
import { LineIntent, OfflineSaleOp, SaleOp, Tender, VoidOp } from './operations';
import { judgeRead, mutate } from './executor';

/** A checkout line from its intent (warehouse only where checkout takes one). */
function lineBody(w: World, s: StoreWorld, l: LineIntent, withWarehouse: boolean): Record<string, unknown> {
  const { items, caseUnitId } = w.suite;
  const body: Record<string, unknown> = { id: l.byCase ? items['BEV-001'] : items[POOL[l.item % POOL.length]], qty: l.qty };
  if (l.byCase) body.unit_id = caseUnitId;
  if (withWarehouse && l.back) body.warehouse_id = s.back;
  if (l.discount) {
    body.discount_type = l.discount.type;
    body.discount_value = l.discount.type === 'percent' ? l.discount.value : major(l.discount.value, s.decimals);
  }
  return body;
}

/** Tenders for a total of `total` minor units, as JSON payments. */
export function tenders(tender: Tender, total: number, part: number, over: number, d: number): Record<string, unknown>[] {
  const share = Math.min(total - 1, Math.max(1, Math.floor((total * part) / 100)));
  const pay = (code: string, amount: number, tendered?: number) => ({
    payment_method_code: code,
    amount: major(amount, d),
    ...(tendered === undefined ? {} : { tendered: major(tendered, d) }),
  });
  switch (tender) {
    case 'cash_exact':
      return [pay('cash', total)];
    case 'cash_over':
      return [pay('cash', total + over)];
    case 'cash_tendered':
      return [pay('cash', total, total + over)];
    case 'card':
      return [pay('card', total)];
    case 'split':
      return total < 2 ? [pay('card', total)] : [pay('card', share), pay('cash', total - share, total - share + (over % 2 ? over : 0))];
    case 'on_account':
      return [pay('on_account', total)];
    case 'split_account':
      return total < 2 ? [pay('on_account', total)] : [pay('cash', share), pay('on_account', total - share)];
  }
}

/** The server's total for a cart (POST /pricing/cart), in minor units, or null when it refuses the cart. */
async function serverTotal(w: World, s: StoreWorld, token: string, cart: Record<string, unknown>, f: Findings): Promise<number | null> {
  const res = judgeRead(w, f, 'POST /pricing/cart', await call(w, 'post', '/pricing/cart', token, cart));
  return res.status === 200 ? minor(res.body.data.total, s.decimals) : null;
}

export async function sale(w: World, op: SaleOp, f: Findings): Promise<void> {
  const s = w.stores[op.store];
  const token = w.tokens[op.actor];
  const customerId = op.customer === 'member' ? w.suite.memberCustomerId : op.customer === 'exempt' ? w.suite.exemptCustomerId : undefined;
  const common: Record<string, unknown> = {
    store_id: s.id,
    ...(op.exempt ? { tax_exempt: true, tax_exempt_reason: 'Diplomatic mission' } : {}),
    ...(op.cart
      ? { cart_discount_type: op.cart.type, cart_discount_value: op.cart.type === 'percent' ? op.cart.value : major(op.cart.value, s.decimals) }
      : {}),
  };
  const total = await serverTotal(
    w,
    s,
    token,
    { ...common, ...(customerId ? { customer_id: customerId } : {}), items: op.lines.map((l) => lineBody(w, s, l, false)) },
    f,
  );
  const t = total ?? 1;
  const body = {
    ...common,
    idempotency_key: w.key('sale'),
    ...(customerId ? { customer_id: String(customerId) } : {}),
    items: op.lines.map((l) => lineBody(w, s, l, true)),
    payments: tenders(op.tender, t, op.part, op.over, s.decimals),
    total_amount: major(t, s.decimals),
  };
  const validated = judgeRead(w, f, 'POST /pos/checkout/validate', await call(w, 'post', '/pos/checkout/validate', token, body));
  const res = await mutate(w, f, `checkout in ${s.code}`, () => call(w, 'post', '/pos/checkout', token, body));
  compareValidation(s, validated, res, f, s.inclusive && (op.exempt || op.customer === 'exempt'));
  if (res.status !== 201) return;
  w.sales.push({ id: res.body.data.id, store: op.store });
  if (op.replay) {
    const again = await mutate(w, f, 'checkout replay', () => call(w, 'post', '/pos/checkout', token, body));
    f.equal(again.status, 201, `replay of sale ${res.body.data.id}: status`);
    f.equal(again.headers['idempotent-replayed'], 'true', `replay of sale ${res.body.data.id}: Idempotent-Replayed`);
    f.equal(again.body.data?.id, res.body.data.id, `replay of sale ${res.body.data.id}: the same sale`);
  }
}

/**
 * POST /pos/checkout/validate runs every check of checkout and answers its priced cart: it
 * refuses what checkout refuses (same status; a cart it accepts while no session can sell is a
 * 409 at checkout) and prices and settles what it accepts exactly as the sale is recorded.
 */
function compareValidation(s: StoreWorld, v: Answer, c: Answer, f: Findings, exemptInclusive: boolean): void {
  const label = `validate vs checkout in ${s.code}`;
  if (v.status !== 200 || c.status !== 201) {
    // A cart with several problems may be refused for another one first (checkout looks at the till's session first).
    const sold = c.status === 201;
    const allowed = v.status === 200 && v.body.data.can_sell;
    f.equal(sold, allowed, `${label}: checkout ${c.status} after validate ${v.status} (${JSON.stringify(v.body.code ?? v.body.data?.can_sell ?? '')})`);
    return;
  }
  const d = v.body.data;
  const sale = c.body.data;
  const m = (x: number) => minor(x, s.decimals);
  for (const [vk, sk] of [
    ['subtotal', 'subtotal'],
    ['discount_total', 'discount_total'],
    ['tax_total', 'tax_total'],
    ['total', 'total_amount'],
    ['change', 'change_amount'],
    ['balance_due', 'balance_due'],
  ])
    f.equal(m(d[vk]), m(sale[sk]), `${label} sale ${sale.id}: ${vk}`, vk === 'change' ? 'tendered-change' : undefined);
  f.equal(d.items.length, sale.items.length, `${label} sale ${sale.id}: lines`);
  d.items.forEach((l: Record<string, number>, i: number) => {
    const r = sale.items[i] ?? {};
    for (const k of ['gross', 'net', 'tax', 'total'])
      f.equal(m(l[k]), m(r[k]), `${label} sale ${sale.id} line ${i}: ${k}`, exemptInclusive ? 'inclusive-identity' : undefined);
  });
  d.payments.forEach((p: Record<string, number | null>, i: number) => {
    const r = sale.payments[i] ?? {};
    f.equal(m(p.applied as number), m(r.amount), `${label} sale ${sale.id} payment ${i}: applied`, 'tendered-change');
    f.equal(m(p.change as number), m(r.change), `${label} sale ${sale.id} payment ${i}: change`, 'tendered-change');
  });
}

export async function offlineSale(w: World, op: OfflineSaleOp, f: Findings): Promise<void> {
  const s = w.stores[op.store];
  const token = w.tokens[op.actor];
  const priced = judgeRead(
    w,
    f,
    'POST /pricing/cart',
    await call(w, 'post', '/pricing/cart', token, { store_id: s.id, items: op.lines.map((l) => lineBody(w, s, l, false)) }),
  );
  const total = priced.status === 200 ? minor(priced.body.data.total, s.decimals) : 1;
  // The terminal charged the price it showed (the server's unit price) with the discounts asked for.
  const items = op.lines.map((l, i) => ({
    ...lineBody(w, s, l, true),
    ...(priced.status === 200 ? { price: priced.body.data.items[i].unit_price } : {}),
  }));
  const at = new Date(Date.now() - op.secondsAgo * 1000).toISOString();
  const tx = {
    idempotency_key: w.key('offline'),
    type: 'sale',
    offline_created_at: at,
    data: { items, payments: tenders(op.tender, total, 50, op.over, s.decimals), total_amount: major(total, s.decimals) },
  };
  const res = await mutate(
    w,
    f,
    `offline sale in ${s.code}`,
    () => call(w, 'post', '/sync/upload', token, { store_id: s.id, transactions: [tx] }),
    (r) => r.status >= 400 || r.body.data?.results?.[0]?.status === 'rejected',
  );
  const result = res.body.data?.results?.[0];
  if (res.status !== 200 || !result) return;
  w.log.push(`  offline sale: ${result.status} ${result.code ?? ''} ${JSON.stringify(result.errors ?? '')}`);
  if (result.status === 'accepted') w.sales.push({ id: Number(result.id), store: op.store });
}

export async function voidSale(w: World, op: VoidOp, f: Findings): Promise<void> {
  if (!w.sales.length) return;
  const target = w.sales[op.pick % w.sales.length];
  await mutate(w, f, `void sale ${target.id}`, () => call(w, 'post', `/sales/${target.id}/void`, w.tokens.manager, { reason: 'Invariant suite' }));
}
