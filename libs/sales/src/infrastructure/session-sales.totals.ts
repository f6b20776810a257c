import { Injectable } from '@nestjs/common';
import { TxRepository } from '@pos/platform';
import { SessionSalesFigures, SessionSalesTotals } from '@pos/sessions';

/**
 * Binds the sessions context's port: a session's sales figures from its sales and their payments
 * (voided sales excluded, but for a closed session those voided after its close), two aggregate
 * statements. Cash is what cash-type tenders paid towards
 * the totals (payment amounts, net of change), whatever the method's code; what customers handed
 * over is `tendered` (a row without it, e.g. written before it was kept, handed over its amount
 * plus its change).
 */
@Injectable()
export class SaleSessionTotals extends TxRepository implements SessionSalesTotals {
  async totals(sessionId: number, closed = false): Promise<SessionSalesFigures> {
    // Voided sales do not count, unless voided after the session closed (its drawer was counted with them).
    const standing = closed ? "(s.status <> 'voided' OR s.voided_after_close = 1)" : "s.status <> 'voided'";
    const args = [sessionId];
    const [sales] = (await this.em.query(
      `SELECT COUNT(*) AS n, COALESCE(SUM(s.total_amount), 0) AS total FROM sales s WHERE s.session_id = ? AND ${standing}`,
      args,
    )) as {
      n: number | string;
      total: number | string;
    }[];
    const tenders = (await this.em.query(
      'SELECT p.method_code AS code, p.method_type AS type, SUM(p.amount) AS amount, SUM(p.change_amount) AS change_given, ' +
        'SUM(COALESCE(p.tendered, p.amount + p.change_amount)) AS tendered ' +
        `FROM sale_payments p JOIN sales s ON s.id = p.sale_id WHERE s.session_id = ? AND ${standing} GROUP BY p.method_code, p.method_type`,
      args,
    )) as { code: string; type: string; amount: number | string; change_given: number | string; tendered: number | string }[];
    const figures: SessionSalesFigures = {
      salesCount: Number(sales.n),
      salesTotal: Number(sales.total),
      byMethod: {},
      cashSales: 0,
      cashTendered: 0,
      changeGiven: 0,
    };
    for (const t of tenders) {
      figures.byMethod[t.code] = (figures.byMethod[t.code] ?? 0) + Number(t.amount);
      if (t.type !== 'cash') continue;
      figures.cashSales += Number(t.amount);
      figures.cashTendered += Number(t.tendered);
      figures.changeGiven += Number(t.change_given);
    }
    return figures;
  }
}
