import request from 'supertest';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp, usingMysql } from '../support/test-app';
import { EventReader, FeedReader, pollUntil, sleep, stampMs } from './partner-readers';

/**
 * Issue 26 on MySQL: a change stamped T whose transaction commits after a partner has polled is
 * still served, exactly once, because the feeds and the event log serve nothing newer than
 * now - CHANGE_FEED_SETTLE_SECONDS. The late transaction is a raw second connection that stamps
 * an existing sale (and logs an event) at T, stays open while a later sale commits and the
 * partner polls, then commits. The same steps against an app with CHANGE_FEED_SETTLE_SECONDS=0
 * lose the change for good: the cursor has already moved past T, which is why the horizon exists.
 * (SQLite has one writer at a time: a transaction cannot stay open across another's commit.)
 */
const describeMysql = usingMysql() ? describe : describe.skip;

interface Outcome {
  sales: FeedReader;
  events: EventReader;
  late: number; // the sale stamped late
  stamp: number; // its stamp T as committed (ms)
  eventId: number; // the event logged late
  later: number[]; // the sales committed after T (one while the late transaction was open, one after)
  start: Date;
}

async function lateCommit(t: TestApp): Promise<Outcome> {
  const settle = t.config.changeFeed.settleSeconds;
  const cashier = await login(t, DEMO.cashier);
  const partner = (await integrationToken(t, ['sales.view'])).token;
  const cola = Number((await t.db.query("SELECT id FROM items WHERE sku = 'BEV-003'"))[0].id);
  await request(t.http).post('/api/v1/sessions/open').set(bearer(cashier)).send({ store_id: 1, opening_balance: 100 }).expect(200);
  let n = 0;
  const sell = async (): Promise<number> => {
    const res = await request(t.http)
      .post('/api/v1/pos/checkout')
      .set(bearer(cashier))
      .send({
        store_id: 1,
        idempotency_key: `late-${++n}`,
        items: [{ id: cola, qty: 1 }],
        payments: [{ payment_method_code: 'cash', amount: 2 }],
        total_amount: 1.94,
      });
    if (res.status !== 201) throw new Error(`checkout ${res.status} ${JSON.stringify(res.body)}`);
    return Number(res.body.data.id);
  };
  const start = new Date(Math.floor(Date.now() / 1000) * 1000);
  await sleep(1100); // MySQL keeps whole seconds: every stamp from here on is after start
  const late = await sell();
  const sales = new FeedReader(t, partner, '/api/v1/integration/sales', start);
  const events = new EventReader(t, partner, start, 50, 'sale.completed,sale.voided');
  await pollUntil(sales, () => sales.versions(late).length === 1, 40, 250);
  await pollUntil(events, () => events.events().length === 1, 40, 250);
  await sleep(1100); // T falls in a later second than the sale's first stamp

  const qr = t.db.createQueryRunner();
  await qr.connect();
  const later: number[] = [];
  let eventId: number;
  try {
    await qr.startTransaction();
    const T = new Date();
    await qr.query('UPDATE sales SET updated_at = ? WHERE id = ?', [T, late]);
    const inserted = (await qr.query('INSERT INTO outbox_events (type, store_id, payload, created_at) VALUES (?, ?, ?, ?)', [
      'sale.voided',
      1,
      JSON.stringify({ sale: { id: late }, refunded: 0, reason: 'committed late' }),
      T,
    ])) as { insertId: number };
    eventId = Number(inserted.insertId);
    // a later change commits while T is still open, and the partner polls
    later.push(await sell());
    if (settle === 0) {
      await pollUntil(sales, () => sales.versions(later[0]).length === 1, 40, 250);
      await pollUntil(events, () => events.events().length === 2, 40, 250);
    } else {
      await sales.poll();
      await events.poll();
    }
    await qr.commitTransaction();
  } finally {
    if (qr.isTransactionActive) await qr.rollbackTransaction();
    await qr.release();
  }
  // the partner goes on polling until a sale committed after all of that is served
  later.push(await sell());
  await pollUntil(sales, () => sales.versions(later[1]).length === 1, 80, 250);
  await pollUntil(events, () => events.events().some((e) => (e.data.sale as { id: number }).id === later[1]), 80, 250);
  const stamp = stampMs((await t.db.query('SELECT updated_at FROM sales WHERE id = ?', [late]))[0].updated_at);
  return { sales, events, late, stamp, eventId: eventId!, later, start };
}

describeMysql('Partner: a change committed late is served exactly once (MySQL)', () => {
  // one app at a time: two booted side by side in one process share module state (the login of the first fails)
  describe('with the horizon (CHANGE_FEED_SETTLE_SECONDS=3)', () => {
    let t: TestApp;
    beforeAll(async () => (t = await startTestApp({ CHANGE_FEED_SETTLE_SECONDS: '3' })));
    afterAll(() => t?.close());

    it('serves the late change and its event once, after the poll that ran while it was open', async () => {
      const o = await lateCommit(t);
      expect(o.sales.versions(o.late).map((r) => stampMs(r.updated_at))).toEqual([expect.any(Number), o.stamp]);
      expect(stampMs(o.sales.versions(o.late)[0].updated_at)).toBeLessThan(o.stamp);
      for (const id of o.later) expect(o.sales.versions(id)).toHaveLength(1);
      expect(o.sales.duplicatePairs()).toEqual([]);
      expect(o.sales.inOrder()).toBe(true);
      const ids = o.events.events().map((e) => Number(e.id));
      expect(ids.filter((id) => id === o.eventId)).toHaveLength(1);
      expect(new Set(ids).size).toBe(ids.length);
      expect(o.events.events().map((e) => e.type)).toEqual(['sale.completed', 'sale.voided', 'sale.completed', 'sale.completed']);
    });
  });

  describe('without it (CHANGE_FEED_SETTLE_SECONDS=0)', () => {
    let t: TestApp;
    beforeAll(async () => (t = await startTestApp({ CHANGE_FEED_SETTLE_SECONDS: '0' })));
    afterAll(() => t?.close());

    it('loses the late change for good: the cursor has already moved past T', async () => {
      const o = await lateCommit(t);
      expect(o.sales.versions(o.late)).toHaveLength(1); // its first version only
      expect(stampMs(o.sales.versions(o.late)[0].updated_at)).toBeLessThan(o.stamp);
      for (const id of o.later) expect(o.sales.versions(id)).toHaveLength(1);
      expect(o.events.events().map((e) => Number(e.id))).not.toContain(o.eventId);
      // the change is committed and there: a reader starting over from the beginning sees it
      const partner = (await integrationToken(t, ['sales.view'])).token;
      const fresh = new FeedReader(t, partner, '/api/v1/integration/sales', o.start);
      await fresh.poll();
      expect(fresh.versions(o.late).map((r) => stampMs(r.updated_at))).toEqual([o.stamp]);
      const freshEvents = new EventReader(t, partner, o.start, 50, 'sale.completed,sale.voided');
      await freshEvents.poll();
      expect(freshEvents.events().map((e) => Number(e.id))).toContain(o.eventId);
    });
  });
});
