import { loadBooks } from './books';
import { Findings } from './known-defects';
import { call, major, openSession, POOL, World } from './harness';
import { CashMoveOp, InvoicePaymentOp, ReturnOp, SessionOp, StockOp } from './operations';
import { judgeRead, mutate } from './executor';
import { expectedCash } from './invariants-other';

const WRITE_OFF = new Set(['damaged', 'defective', 'spoiled']);

export async function returnOp(w: World, op: ReturnOp, f: Findings): Promise<void> {
  if (!w.sales.length) return;
  const target = w.sales[op.pick % w.sales.length];
  const s = w.stores[target.store];
  const check = judgeRead(w, f, 'GET /returns/check-sale', await call(w, 'get', `/returns/check-sale?sale_id=${target.id}`, w.tokens.manager));
  const lines: { sale_item_id: number; returnable_quantity: number }[] = check.status === 200 ? check.body.data.items : [];
  if (!lines.length) return;
  const chosen = op.all
    ? lines.filter((l) => l.returnable_quantity > 0).map((l, i) => ({ line: l, spec: op.lines[i % op.lines.length], qty: l.returnable_quantity }))
    : [...new Map(op.lines.map((spec) => [spec.pick % lines.length, spec])).entries()].map(([i, spec]) => ({
        line: lines[i],
        spec,
        qty: Math.max(1, Math.ceil((lines[i].returnable_quantity * spec.share) / 100)),
      }));
  if (!chosen.length) return;
  const body = {
    sale_id: String(target.id),
    idempotency_key: w.key('return'),
    reason_notes: 'Invariant suite',
    ...(op.flow === 'immediate' ? { process_immediately: true } : {}),
    items: chosen.map(({ line, spec, qty }) => ({
      sale_item_id: line.sale_item_id,
      quantity: qty,
      condition: spec.condition,
      // restock: true on goods written off is a 422 (a refusal the suite keeps to check it leaves no trace)
      ...(spec.restock === undefined ? {} : { restock: WRITE_OFF.has(spec.condition) ? spec.restock && spec.share > 90 : spec.restock }),
    })),
  };
  const creator = op.flow === 'immediate' ? w.tokens.manager : w.tokens.cashier;
  const created = await mutate(w, f, `return of sale ${target.id} in ${s.code}`, () => call(w, 'post', '/returns', creator, body));
  if (created.status !== 200) return;
  const id = Number(created.body.data.id);
  w.returns.push(id);
  const act = (action: string, token: string) => mutate(w, f, `${action} return ${id}`, () => call(w, 'post', `/returns/${id}/${action}`, token, {}));
  if (op.flow === 'approve_process') {
    if ((await act('approve', w.tokens.manager)).status === 200) await act('process', w.tokens.manager);
  } else if (op.flow === 'reject') await act('reject', w.tokens.manager);
  else if (op.flow === 'cancel') await act('cancel', w.tokens.cashier);
}

export async function sessionOp(w: World, op: SessionOp, f: Findings): Promise<void> {
  const s = w.stores[op.store];
  const id = w.sessions[op.store][op.actor];
  if (id === null) return;
  const token = w.tokens[op.actor];
  if (op.action !== 'close') {
    await mutate(w, f, `${op.action} session ${id}`, () => call(w, 'post', `/sessions/${id}/${op.action}`, token));
    return;
  }
  const books = await loadBooks(w.suite.q, [s.id]);
  const session = books.sessions.find((x) => x.id === id);
  if (!session) return;
  const counted = Math.max(0, expectedCash(books, session) + op.delta);
  const closed = await mutate(w, f, `close session ${id}`, () =>
    call(w, 'post', `/sessions/${id}/close`, token, { closing_balance: major(counted, s.decimals), discrepancy_notes: 'Invariant suite' }),
  );
  if (closed.status !== 200) return;
  // The counted amount is stored in the store currency's minor units (JPY: whole yen).
  const [row] = await w.suite.q('SELECT closing_balance FROM cashier_sessions WHERE id = ?', [id]);
  f.equal(Number(row.closing_balance), counted, `session ${id} in ${s.code}: counted cash stored in minor units`, 'session-scale');
  w.sessions[op.store][op.actor] = await openSession(w.suite, token, s, major(op.reopen, s.decimals));
}

export async function cashMove(w: World, op: CashMoveOp, f: Findings): Promise<void> {
  const s = w.stores[op.store];
  const id = w.sessions[op.store][op.actor];
  const token = w.tokens[op.actor];
  const amount = major(op.amount, s.decimals);
  const body = { type: op.type, amount, reason: 'Invariant suite' };
  if (!op.offline) {
    if (id === null) return;
    const res = await mutate(w, f, `${op.type} in session ${id}`, () => call(w, 'post', `/sessions/${id}/cash-movement`, token, body));
    if (res.status === 200) {
      const [row] = await w.suite.q('SELECT amount FROM cash_movements WHERE session_id = ? ORDER BY id DESC LIMIT 1', [id]);
      f.equal(Number(row.amount), op.amount, `${op.type} in session ${id} (${s.code}): amount stored in minor units`, 'session-scale');
    }
    return;
  }
  const tx = { idempotency_key: w.key('cash'), type: 'cash_movement', offline_created_at: new Date().toISOString(), data: body };
  const res = await mutate(
    w,
    f,
    `offline ${op.type} in ${s.code}`,
    () => call(w, 'post', '/sync/upload', token, { store_id: s.id, transactions: [tx] }),
    (r) => r.status >= 400 || r.body.data?.results?.[0]?.status === 'rejected',
  );
  const result = res.body.data?.results?.[0];
  if (result) w.log.push(`  offline cash: ${result.status} ${result.code ?? ''} ${JSON.stringify(result.errors ?? '')}`);
  if (result?.status === 'accepted') {
    const [row] = await w.suite.q('SELECT amount FROM cash_movements WHERE id = ?', [result.id]);
    f.equal(row ? Number(row.amount) : null, op.amount, `offline ${op.type} ${result.id} (${s.code}): amount stored in minor units`);
  }
}

export async function invoicePayment(w: World, op: InvoicePaymentOp, f: Findings): Promise<void> {
  const ids = w.sales.map((x) => x.id);
  if (!ids.length) return;
  const open = await w.suite.q(
    `SELECT i.id, i.balance, s.store_id FROM invoices i JOIN sales s ON s.id = i.sale_id WHERE i.sale_id IN (${ids.join(',')}) AND i.balance > 0 AND i.status <> 'void' ORDER BY i.id`,
  );
  if (!open.length) return;
  const inv = open[op.pick % open.length];
  const s = Object.values(w.stores).find((x) => x.id === Number(inv.store_id))!;
  const balance = Number(inv.balance);
  const amount = op.part === 'full' ? balance : op.part === 'half' ? Math.max(1, Math.floor(balance / 2)) : balance + 1;
  await mutate(w, f, `payment of invoice ${inv.id}`, () =>
    call(w, 'post', `/invoices/${inv.id}/payments`, w.tokens.manager, { payment_method_code: op.method, amount: major(amount, s.decimals) }),
  );
}

export async function stockOp(w: World, op: StockOp, f: Findings): Promise<void> {
  const s = w.stores[op.store];
  const item = w.suite.items[POOL[op.item % POOL.length]];
  const [from, to] = op.back ? [s.back, s.floor] : [s.floor, s.back];
  const quantity = op.type === 'count' ? op.qty : Math.max(1, op.type === 'receive' ? op.qty : Math.ceil(op.qty / 5));
  const body = {
    type: op.type,
    warehouse_id: from,
    ...(op.type === 'transfer' ? { to_warehouse_id: to } : {}),
    items: [{ item_id: item, quantity }],
  };
  await mutate(w, f, `stock ${op.type} in ${s.code}`, () => call(w, 'post', '/inventory/adjustments', w.tokens.manager, body));
}
