import { WebhookReceiver } from '../webhooks/receiver';
import { poll, Services, sqlAt } from './topology';
import { Acknowledged, call, TillLog } from './traffic';

const sorted = (xs: number[]) => [...xs].sort((a, b) => a - b);

export interface AckCheck {
  services: Services;
  writePort: number;
  receiver: WebhookReceiver;
  urls: string[];
  acknowledged: Acknowledged[];
}

/**
 * What a retailer's books need after any failure: every acknowledged sale stored exactly once,
 * under the ids the till was given (lines and payments), the same ids in an idempotent replay
 * and in the `sale.completed` webhook, and no sale stored that no till was told of twice.
 */
export async function checkAcknowledged(c: AckCheck): Promise<void> {
  const db = c.services.database;
  const keys = c.acknowledged.map((a) => a.key);
  const stored = await sqlAt<{ id: number; idempotency_key: string }>(
    c.writePort,
    `SELECT id, idempotency_key FROM sales WHERE idempotency_key IN (${keys.map(() => '?').join(',')})`,
    keys,
    db,
  );
  expect(stored).toHaveLength(keys.length);
  const byKey = new Map(stored.map((s) => [s.idempotency_key, Number(s.id)]));
  const lines = await sqlAt<{ id: number; sale_id: number }>(
    c.writePort,
    `SELECT id, sale_id FROM sale_items WHERE sale_id IN (${stored.map(() => '?').join(',')})`,
    stored.map((s) => s.id),
    db,
  );
  const payments = await sqlAt<{ id: number; sale_id: number }>(
    c.writePort,
    `SELECT id, sale_id FROM sale_payments WHERE sale_id IN (${stored.map(() => '?').join(',')})`,
    stored.map((s) => s.id),
    db,
  );
  const of = (rows: { id: number; sale_id: number }[], sale: number) => sorted(rows.filter((r) => Number(r.sale_id) === sale).map((r) => Number(r.id)));
  for (const a of c.acknowledged) {
    expect({ key: a.key, sale: byKey.get(a.key) }).toEqual({ key: a.key, sale: a.saleId });
    expect({ key: a.key, lines: sorted(a.lineIds) }).toEqual({ key: a.key, lines: of(lines, a.saleId) });
    expect({ key: a.key, payments: sorted(a.paymentIds) }).toEqual({ key: a.key, payments: of(payments, a.saleId) });
  }
  // replays (a sample, through both replicas) answer the stored ids
  for (const [i, a] of c.acknowledged.filter((_, i) => i % 7 === 0).entries()) {
    const replay = await call(c.urls[i % c.urls.length], 'POST', '/pos/checkout', a.token, a.body);
    expect(replay.status).toBe(201);
    const data = replay.body.data as { id: number; items: { id: number }[] };
    expect({ key: a.key, id: Number(data.id), lines: sorted(data.items.map((l) => Number(l.id))) }).toEqual({
      key: a.key,
      id: a.saleId,
      lines: sorted(a.lineIds),
    });
  }
  // every acknowledged sale reaches the webhook once its relay and delivery have run, with its ids
  const hooked = () => {
    const seen = new Map<number, number[]>();
    for (const r of c.receiver.received) {
      if (r.body.type !== 'sale.completed') continue;
      const sale = (r.body.data as { sale: { id: number; items: { id: number }[] } }).sale;
      seen.set(Number(sale.id), sorted(sale.items.map((l) => Number(l.id))));
    }
    return seen;
  };
  const seen = await poll(
    async () => hooked(),
    (s) => c.acknowledged.every((a) => s.has(a.saleId)),
    600,
  );
  for (const a of c.acknowledged) expect({ key: a.key, lines: seen.get(a.saleId) }).toEqual({ key: a.key, lines: sorted(a.lineIds) });
}

/** The figures of one stream: sales acknowledged, sales/s, refusals. */
export function figures(label: string, logs: TillLog[], elapsedMs: number): Record<string, unknown> {
  const sales = logs.reduce((n, l) => n + l.acknowledged.length, 0);
  return {
    scenario: label,
    sales,
    returns: logs.reduce((n, l) => n + l.returnsMade, 0),
    lookups: logs.reduce((n, l) => n + l.lookups, 0),
    elapsed_ms: elapsedMs,
    sales_per_s: Math.round((sales / (elapsedMs / 1000)) * 10) / 10,
  };
}
