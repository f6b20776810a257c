import { Books, groupBy, SessionRow, sum } from './books';
import { Findings } from './known-defects';

const WRITTEN_OFF: Record<string, string> = { damaged: 'damage', defective: 'damage', spoiled: 'spoilage' };

/**
 * Returns: a processed return's refunds, lines and credit note add up to its total, and
 * refund_net + refund_tax = refund_total (D1: net is before tax in both modes); a sale line's
 * processed returns never pass what was sold and, once it is all back, refund exactly its total
 * and tax; the sale's status follows; each processed return moved the stock its lines say.
 */
export function checkReturns(b: Books, f: Findings): void {
  const items = groupBy(b.returnItems, (i) => i.return_id);
  const refunds = groupBy(b.refunds, (r) => r.return_id);
  const notes = groupBy(b.creditNotes, (c) => c.return_id);
  const movements = groupBy(
    b.movements.filter((m) => m.reference_type === 'return'),
    (m) => Number(m.reference_id),
  );
  const invoiceOf = new Map(b.invoices.map((i) => [i.sale_id, i.id]));
  for (const r of b.returns) {
    const at = `return ${r.id} (${r.status}) of sale ${r.sale_id}`;
    const lines = items.get(r.id) ?? [];
    const paid = refunds.get(r.id) ?? [];
    const cn = notes.get(r.id) ?? [];
    f.equal(
      sum(lines, (l) => l.refund_total),
      r.refund_total,
      `${at}: lines' refund_total = refund_total`,
    );
    f.equal(
      sum(lines, (l) => l.refund_net),
      r.refund_net,
      `${at}: lines' refund_net = refund_net`,
    );
    f.equal(
      sum(lines, (l) => l.refund_tax),
      r.refund_tax,
      `${at}: lines' refund_tax = refund_tax`,
    );
    f.equal(r.refund_net + r.refund_tax, r.refund_total, `${at}: refund_net + refund_tax = refund_total`, 'figure-definitions');
    for (const l of lines)
      f.equal(l.refund_net + l.refund_tax, l.refund_total, `${at} line ${l.id}: refund_net + refund_tax = refund_total`, 'figure-definitions');
    if (r.status !== 'processed') {
      f.equal(paid.length + cn.length + (movements.get(r.id) ?? []).length, 0, `${at}: no refund, credit note or stock movement before processing`);
      continue;
    }
    f.equal(
      sum(paid, (p) => p.amount),
      r.refund_total,
      `${at}: refunds paid = refund_total`,
    );
    f.equal(cn.length, 1, `${at}: one credit note`);
    if (cn[0]) {
      const onAccount = sum(
        paid.filter((p) => p.method_type === 'on_account'),
        (p) => p.amount,
      );
      f.equal([cn[0].amount, cn[0].net, cn[0].tax, cn[0].on_account], [r.refund_total, r.refund_net, r.refund_tax, onAccount], `${at}: credit note`);
      f.equal(cn[0].invoice_id, invoiceOf.get(r.sale_id) ?? null, `${at}: credit note on the sale's invoice`);
    }
    const moved = movements.get(r.id) ?? [];
    const restocked = sum(
      lines.filter((l) => l.restock),
      (l) => l.base_quantity,
    );
    f.equal(
      sum(moved, (m) => m.quantity),
      restocked,
      `${at}: stock moved = units restocked`,
    );
    for (const kind of ['damage', 'spoilage'])
      f.equal(
        -sum(
          moved.filter((m) => m.type === kind),
          (m) => m.quantity,
        ),
        sum(
          lines.filter((l) => WRITTEN_OFF[l.item_condition] === kind),
          (l) => l.base_quantity,
        ),
        `${at}: ${kind} written off`,
      );
  }

  const processed = new Set(b.returns.filter((r) => r.status === 'processed').map((r) => r.id));
  const back = groupBy(
    b.returnItems.filter((i) => processed.has(i.return_id)),
    (i) => i.sale_item_id,
  );
  const saleLines = groupBy(b.lines, (l) => l.sale_id);
  for (const s of b.sales) {
    const ls = saleLines.get(s.id) ?? [];
    for (const l of ls) {
      const returned = back.get(l.id) ?? [];
      const at = `sale ${s.id} line ${l.line_no}`;
      f.equal(
        sum(returned, (i) => i.quantity),
        l.returned_quantity,
        `${at}: returned_quantity = processed return units`,
      );
      if (l.returned_quantity === l.quantity && l.quantity > 0) {
        f.equal(
          sum(returned, (i) => i.refund_total),
          l.total,
          `${at}: all back, refunds = line total`,
        );
        f.equal(
          sum(returned, (i) => i.refund_tax),
          l.tax,
          `${at}: all back, refunded tax = line tax`,
        );
      }
    }
    if (s.status === 'voided') continue;
    const units = sum(ls, (l) => l.quantity);
    const back2 = sum(ls, (l) => l.returned_quantity);
    const status = back2 === 0 ? 'completed' : back2 === units ? 'refunded' : 'partially_refunded';
    f.equal(s.status, status, `sale ${s.id}: status after returns (${back2}/${units} units back)`);
  }
}

/**
 * D3: expected cash = opening float + cash in - cash out + cash sales (cash payment amounts, net of
 * change, of the session's sales not voided) - cash refunds (cash refunds of the returns processed
 * in it), as the drawer stands now.
 */
export function expectedCash(b: Books, s: SessionRow): number {
  return s.opening_balance + sum(drawerEvents(b, s), (e) => e.amount);
}

/** What moved a drawer's cash, and when: a sale's cash (when rung, or uploaded), its void, a refund, a movement. */
export function drawerEvents(b: Books, s: SessionRow): { at: Date; amount: number; what: string }[] {
  const cashOf = (saleId: number) =>
    sum(
      b.payments.filter((p) => p.sale_id === saleId && p.method_type === 'cash'),
      (p) => p.amount,
    );
  const later = (x: Date, y: Date | null) => (y !== null && y > x ? y : x);
  const events: { at: Date; amount: number; what: string }[] = [];
  for (const x of b.sales.filter((v) => v.session_id === s.id)) {
    const cash = cashOf(x.id);
    events.push({ at: later(x.created_at, x.synced_at), amount: cash, what: `sale ${x.id}` });
    if (x.status === 'voided' && x.voided_at) events.push({ at: x.voided_at, amount: -cash, what: `void of sale ${x.id}` });
  }
  const returns = b.returns.filter((r) => r.status === 'processed' && r.session_id === s.id);
  for (const r of returns)
    events.push({
      at: r.processed_at!,
      amount: -sum(
        b.refunds.filter((f) => f.return_id === r.id && f.method_type === 'cash'),
        (f) => f.amount,
      ),
      what: `return ${r.id}`,
    });
  for (const m of b.cashMoves.filter((m) => m.session_id === s.id))
    events.push({ at: m.created_at, amount: m.type === 'cash_in' ? m.amount : -m.amount, what: `${m.type} ${m.id}` });
  return events;
}

/**
 * The expected cash a drawer can have had at its close: D3 over what happened before it. Times
 * are whole seconds on MySQL, some truncated and some rounded, so what happened within a second of
 * the close may be on either side of it: any of those counted or not.
 */
function expectedAtClose(b: Books, s: SessionRow): number[] {
  const closedAt = s.closed_at!.getTime();
  const events = drawerEvents(b, s);
  const before = events.filter((e) => e.at.getTime() < closedAt - 1000);
  const either = events.filter((e) => Math.abs(e.at.getTime() - closedAt) <= 1000).slice(0, 8);
  let totals = [s.opening_balance + sum(before, (e) => e.amount)];
  for (const e of either) totals = [...totals, ...totals.map((t) => t + e.amount)];
  return [...new Set(totals)];
}

/** Closed sessions: discrepancy = counted - expected, and the stored expected is D3 as the drawer stood at the close. */
export function checkSessions(b: Books, f: Findings): void {
  const live = groupBy(
    b.sessions.filter((s) => s.status !== 'closed'),
    (s) => `${s.user_id}:${s.store_id}`,
  );
  for (const [k, list] of live) f.equal(list.length, 1, `user:store ${k}: one live session`);
  for (const s of b.sessions) {
    if (s.status !== 'closed') continue;
    const at = `session ${s.id} (closed)`;
    f.expect(s.closing_balance !== null && s.expected_cash !== null && s.discrepancy !== null, `${at}: counted, expected and discrepancy stored`, () => '');
    if (s.closing_balance === null || s.expected_cash === null || s.discrepancy === null || s.closed_at === null) continue;
    f.equal(s.discrepancy, s.closing_balance - s.expected_cash, `${at}: discrepancy = counted - expected`);
    const candidates = expectedAtClose(b, s);
    f.expect(
      candidates.includes(s.expected_cash),
      `${at}: stored expected = D3 at the close`,
      () => `stored ${s.expected_cash}, recomputed ${candidates.join(' or ')}`,
    );
  }
}

/** Stock: a level is the sum of its movements, and the last movement's balance is the level. */
export function checkStock(b: Books, f: Findings): void {
  const moves = groupBy(b.movements, (m) => `${m.item_id}:${m.warehouse_id}`);
  for (const l of b.levels) {
    const key = `${l.item_id}:${l.warehouse_id}`;
    const list = moves.get(key) ?? [];
    f.equal(
      sum(list, (m) => m.quantity),
      l.quantity,
      `stock item ${l.item_id} warehouse ${l.warehouse_id}: level = sum of movements`,
    );
    if (list.length)
      f.equal(list[list.length - 1].balance_after, l.quantity, `stock item ${l.item_id} warehouse ${l.warehouse_id}: last balance_after = level`);
  }
}

/** A sale took each line's base units from the line's warehouse; a void put them all back. */
export function checkSaleStock(b: Books, f: Findings): void {
  const moved = groupBy(
    b.movements.filter((m) => m.reference_type === 'sale' || m.reference_type === 'sale_void'),
    (m) => `${m.reference_type}:${m.reference_id}:${m.item_id}:${m.warehouse_id}`,
  );
  const lines = groupBy(b.lines, (l) => l.sale_id);
  for (const s of b.sales) {
    const units = new Map<string, number>();
    for (const l of lines.get(s.id) ?? []) units.set(`${l.item_id}:${l.warehouse_id}`, (units.get(`${l.item_id}:${l.warehouse_id}`) ?? 0) + l.base_quantity);
    for (const [key, qty] of units) {
      const out = sum(moved.get(`sale:${s.id}:${key}`) ?? [], (m) => m.quantity);
      const back = sum(moved.get(`sale_void:${s.id}:${key}`) ?? [], (m) => m.quantity);
      f.equal([out, back], [-qty, s.status === 'voided' ? qty : 0], `sale ${s.id} item:warehouse ${key}: stock out and back`);
    }
  }
}
