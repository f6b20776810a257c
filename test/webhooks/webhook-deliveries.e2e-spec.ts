import { OutboxRelayService, WebhookMaintenanceService } from '@pos/webhooks';
// Internal on purpose: the test holds a relay claim open while a "sale" writes its event.
import { OutboxRelayRepository } from '../../libs/webhooks/src/application/webhook.ports';
import { bearer, expectErrorEnvelope, TestApp, usingMysql } from '../support/test-app';
import { eventually, WebhookReceiver } from './receiver';
import { bootWebhooks, captureLogs, signatureOf, sqlTime, Stack, UUID, webhookTools } from './webhook-stack';

// Every log line the service writes is captured (not printed): the last test looks for secrets in it.
const logged = captureLogs();

/**
 * Signed webhooks: deliveries (signing, retries, redelivery, fan-out, the relay, retention) and
 * secrets kept out of the log. Setup and the helpers are in webhook-stack.ts.
 */
describe('Webhooks', () => {
  let s: Stack;
  let t: TestApp;
  let admin: string;
  let cashier: string;
  let receiver: WebhookReceiver;
  let beverage: number;
  const secrets: string[] = [];
  const { api, endpointFor, deliveries, detail, sell } = webhookTools(() => ({ t, admin, cashier, receiver, beverage }), secrets);

  beforeAll(async () => {
    ({ s, t, admin, cashier, receiver, beverage } = await bootWebhooks());
  });
  afterAll(async () => {
    await s.close();
    await receiver.close();
  });

  describe('deliveries', () => {
    let sales: { id: number; secret: string };
    let flaky: { id: number; secret: string };

    it('delivers sale.completed with the four X-Service-* headers and a signature verified from the raw body', async () => {
      sales = await endpointFor('/sales', ['sale.completed']);
      const sale = await sell();
      expect(sale.status).toBe(201);
      const [got] = await receiver.waitFor('/sales', (g) => g.length >= 1);
      expect(got.headers['x-service-event']).toBe('sale.completed');
      expect(got.headers['content-type']).toBe('application/json');
      expect(got.headers['user-agent']).toMatch(/^POS-Service-Webhooks\//);
      const ts = Number(got.headers['x-service-timestamp']);
      expect(String(ts)).toMatch(/^\d{10}$/);
      expect(Math.abs(ts - Date.now() / 1000)).toBeLessThan(30);
      expect(got.headers['x-service-signature']).toBe(signatureOf(sales.secret, got));
      expect(got.headers['x-service-signature']).toMatch(/^[0-9a-f]{64}$/);
      expect(got.deliveryId).toMatch(UUID);
      expect(Object.keys(got.body).sort()).toEqual(['created_at', 'data', 'id', 'type']);
      expect(got.body.type).toBe('sale.completed');
      expect(new Date(got.body.created_at).toISOString()).toBe(got.body.created_at);
      expect((got.body.data.sale as { id: number; receipt_number: string }).id).toBe(sale.body.data.id);
      expect((got.body.data.sale as { receipt_number: string }).receipt_number).toBe(sale.body.data.receipt_number);
      // only what it subscribed to: no session or inventory events
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.at('/sales').map((r) => r.body.type)).toEqual(['sale.completed']);

      const log = await eventually(
        () => deliveries(sales.id),
        (l) => l.data[0]?.status === 'delivered',
      );
      expect(log.data[0]).toMatchObject({
        id: got.deliveryId,
        event: 'sale.completed',
        status: 'delivered',
        attempts: 1,
        last_status_code: 200,
        last_error: null,
      });
    });

    it('a receiver answering 500 once gets the same delivery id again; the log shows both attempts', async () => {
      receiver.on('/flaky', (_r, seenBefore) => (seenBefore === 0 ? { status: 500, body: 'boom' } : { status: 204 }));
      flaky = await endpointFor('/flaky', ['sale.completed']);
      expect((await sell()).status).toBe(201);
      const got = await receiver.waitFor('/flaky', (g) => g.length >= 2);
      expect(got).toHaveLength(2);
      expect(got[1].deliveryId).toBe(got[0].deliveryId);
      expect(got[1].body.id).toBe(got[0].body.id);
      for (const r of got) expect(r.headers['x-service-signature']).toBe(signatureOf(flaky.secret, r));
      expect(got[1].at - got[0].at).toBeGreaterThanOrEqual(900); // the 1 s retry

      const d = await eventually(
        () => detail(flaky.id, got[0].deliveryId),
        (x) => x.status === 'delivered',
      );
      expect(d).toMatchObject({ id: got[0].deliveryId, status: 'delivered', attempts: 2, last_status_code: 204, next_attempt_at: null });
      expect(d.attempt_log).toEqual([
        expect.objectContaining({ attempt: 1, status_code: 500, error: 'HTTP 500', response_excerpt: 'boom', remote_address: '127.0.0.1' }),
        expect.objectContaining({ attempt: 2, status_code: 204, error: null }),
      ]);
      expect(d.attempt_log[0].duration_ms).toEqual(expect.any(Number));
      expect(d.payload).toMatchObject({ id: got[0].body.id, type: 'sale.completed' });
      const endpoint = (await api().get(`/api/v1/webhooks/${flaky.id}`).set(bearer(admin))).body.data;
      expect(endpoint.failing_since).toBeNull(); // the success ended the failing streak
    });

    it('redelivers a delivery with the same delivery id', async () => {
      const [first] = receiver.at('/sales');
      const res = await api().post(`/api/v1/webhooks/${sales.id}/deliveries/${first.deliveryId}/redeliver`).set(bearer(admin));
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ id: first.deliveryId, status: 'pending' });
      const got = (await receiver.waitFor('/sales', (g) => g.filter((r) => r.deliveryId === first.deliveryId).length >= 2)).filter(
        (r) => r.deliveryId === first.deliveryId,
      );
      expect(got[1].body).toEqual(first.body);
      expect(got[1].rawBody).toBe(first.rawBody);
      expect(got[1].headers['x-service-signature']).toBe(signatureOf(sales.secret, got[1]));
      const d = await eventually(
        () => detail(sales.id, first.deliveryId),
        (x) => x.status === 'delivered' && x.attempts === 2,
      );
      expect(d.attempt_log.map((a: { attempt: number }) => a.attempt)).toEqual([1, 2]);
      expectErrorEnvelope(
        await api()
          .post(`/api/v1/webhooks/${sales.id}/deliveries/${'0'.repeat(36)}/redeliver`)
          .set(bearer(admin)),
        404,
      );
      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${flaky.id}/deliveries/${first.deliveryId}/redeliver`).set(bearer(admin)), 404);
      expectErrorEnvelope(await api().get(`/api/v1/webhooks/${sales.id}/deliveries/not-a-uuid`).set(bearer(admin)), 404);
    });

    it('pings one endpoint, whatever it subscribes to', async () => {
      const res = await api().post(`/api/v1/webhooks/${sales.id}/ping`).set(bearer(admin));
      expect(res.status).toBe(202);
      expect(res.body.data).toMatchObject({ event: 'ping', status: 'pending', attempts: 0 });
      const got = await receiver.waitFor('/sales', (g) => g.some((r) => r.body.type === 'ping'));
      const ping = got.find((r) => r.body.type === 'ping')!;
      expect(ping.deliveryId).toBe(res.body.data.id);
      expect(ping.headers['x-service-event']).toBe('ping');
      expect(ping.body.data).toMatchObject({ endpoint_id: sales.id });
      expect(ping.headers['x-service-signature']).toBe(signatureOf(sales.secret, ping));
      expect(receiver.at('/flaky').some((r) => r.body.type === 'ping')).toBe(false);
      const filtered = await deliveries(sales.id, '?event=ping');
      expect(filtered.data.map((d) => d.event)).toEqual(['ping']);
      expectErrorEnvelope(await api().get(`/api/v1/webhooks/${sales.id}/deliveries?status=lost`).set(bearer(admin)), 422);
    });

    it('rotates the secret: both signatures for 24 hours, the new one first', async () => {
      const res = await api().post(`/api/v1/webhooks/${sales.id}/rotate-secret`).set(bearer(admin));
      expect(res.status).toBe(200);
      const { secret, previous_secret_expires_at } = res.body.data;
      secrets.push(secret);
      expect(secret).not.toBe(sales.secret);
      const hours = (new Date(previous_secret_expires_at).getTime() - Date.now()) / 3_600_000;
      expect(hours).toBeGreaterThan(23.9);
      expect(hours).toBeLessThanOrEqual(24);
      const before = receiver.at('/sales').length;
      await api().post(`/api/v1/webhooks/${sales.id}/ping`).set(bearer(admin));
      const got = (await receiver.waitFor('/sales', (g) => g.length > before))[before];
      expect(String(got.headers['x-service-signature']).split(',')).toEqual([signatureOf(secret, got), signatureOf(sales.secret, got)]);
      // after the overlap only the new secret signs
      await t.db.query('UPDATE webhook_endpoints SET previous_secret_expires_at = ? WHERE id = ?', [sqlTime(t, new Date(Date.now() - 1000)), sales.id]);
      await api().post(`/api/v1/webhooks/${sales.id}/ping`).set(bearer(admin));
      const later = (await receiver.waitFor('/sales', (g) => g.length > before + 1))[before + 1];
      expect(later.headers['x-service-signature']).toBe(signatureOf(secret, later));
      sales.secret = secret;
    });

    it('fans one event out to every subscribed endpoint and skips inactive ones', async () => {
      const all = await endpointFor('/all', ['*']);
      const paused = await endpointFor('/paused', ['*'], { active: false });
      const customer = await api().post('/api/v1/customers').set(bearer(admin)).send({ name: 'Webhook Watcher', email: 'watcher@example.com' });
      expect(customer.status).toBe(201);
      const got = await receiver.waitFor('/all', (g) => g.some((r) => r.body.type === 'customer.created'));
      expect(got.find((r) => r.body.type === 'customer.created')!.body.data).toMatchObject({ customer: { id: customer.body.data.id } });
      await new Promise((r) => setTimeout(r, 500));
      expect(receiver.at('/paused')).toEqual([]);
      expect((await deliveries(paused.id)).meta.total).toBe(0);
      expect(receiver.at('/sales').some((r) => r.body.type === 'customer.created')).toBe(false);
      expect((await deliveries(all.id, '?status=delivered')).data.every((d) => d.status === 'delivered')).toBe(true);
    });

    it('retries on the schedule, then marks the delivery failed with every attempt logged', async () => {
      receiver.on('/gone', () => ({ status: 410 }));
      const gone = await endpointFor('/gone', ['ping']);
      const res = await api().post(`/api/v1/webhooks/${gone.id}/ping`).set(bearer(admin));
      const got = await receiver.waitFor('/gone', (g) => g.length >= 4);
      expect(new Set(got.map((r) => r.deliveryId))).toEqual(new Set([res.body.data.id]));
      const d = await eventually(
        () => detail(gone.id, res.body.data.id),
        (x) => x.status === 'failed',
      );
      expect(d).toMatchObject({ attempts: 4, last_status_code: 410, last_error: 'HTTP 410', next_attempt_at: null });
      expect(d.attempt_log.map((a: { status_code: number }) => a.status_code)).toEqual([410, 410, 410, 410]);
      await new Promise((r) => setTimeout(r, 1500));
      expect(receiver.at('/gone')).toHaveLength(4);
      const endpoint = (await api().get(`/api/v1/webhooks/${gone.id}`).set(bearer(admin))).body.data;
      expect(endpoint.failing_since).not.toBeNull();
      expect(endpoint.active).toBe(true); // not failing for 72 hours yet
    });

    it('logs a redirect and a closed port as failed attempts; never follows redirects', async () => {
      receiver.on('/redirect', () => ({ status: 302, body: 'elsewhere' }));
      const redirect = await endpointFor('/redirect', ['ping']);
      const res = await api().post(`/api/v1/webhooks/${redirect.id}/ping`).set(bearer(admin));
      await receiver.waitFor('/redirect', (g) => g.length >= 1);
      const d = await eventually(
        () => detail(redirect.id, res.body.data.id),
        (x) => x.attempts >= 1,
      );
      expect(d.attempt_log[0]).toMatchObject({ status_code: 302, error: 'HTTP 302 (redirects are not followed)' });
      await api().put(`/api/v1/webhooks/${redirect.id}`).set(bearer(admin)).send({ active: false });

      const dead = await endpointFor('/dead', ['ping']);
      await t.db.query('UPDATE webhook_endpoints SET url = ? WHERE id = ?', ['http://127.0.0.1:1/dead', dead.id]);
      const pinged = await api().post(`/api/v1/webhooks/${dead.id}/ping`).set(bearer(admin));
      const failed = await eventually(
        () => detail(dead.id, pinged.body.data.id),
        (x) => x.attempts >= 1,
      );
      expect(failed.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/ECONNREFUSED/) });
      await api().put(`/api/v1/webhooks/${dead.id}`).set(bearer(admin)).send({ active: false });

      // a secret sealed under another APP_KEY: nothing is sent, the attempt says what to do
      const sealedElsewhere = await endpointFor('/sealed-elsewhere', ['ping']);
      await t.db.query('UPDATE webhook_endpoints SET secret_sealed = ? WHERE id = ?', ['v1.AAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAA.AAAA', sealedElsewhere.id]);
      const unsent = await api().post(`/api/v1/webhooks/${sealedElsewhere.id}/ping`).set(bearer(admin));
      const unreadable = await eventually(
        () => detail(sealedElsewhere.id, unsent.body.data.id),
        (x) => x.attempts >= 1,
      );
      expect(unreadable.attempt_log[0]).toMatchObject({ status_code: null, error: expect.stringMatching(/signing secret cannot be opened.*rotate/) });
      expect(receiver.at('/sealed-elsewhere')).toEqual([]);
      await api().put(`/api/v1/webhooks/${sealedElsewhere.id}`).set(bearer(admin)).send({ active: false });
    });

    it('disables an endpoint failing continuously for 72 hours, says so, and re-enables it on request', async () => {
      receiver.on('/down', () => ({ status: 503 }));
      const down = await endpointFor('/down', ['ping']);
      await t.db.query('UPDATE webhook_endpoints SET failing_since = ? WHERE id = ?', [sqlTime(t, new Date(Date.now() - 73 * 3_600_000)), down.id]);
      await api().post(`/api/v1/webhooks/${down.id}/ping`).set(bearer(admin));
      const e = await eventually(
        async () => (await api().get(`/api/v1/webhooks/${down.id}`).set(bearer(admin))).body.data,
        (x) => x.disabled_at !== null,
      );
      expect(e.active).toBe(false);
      expect(e.disabled_reason).toMatch(/failed for 72 hours/);
      // the pending retry (due 1 s after the failure) is not sent to a disabled endpoint
      const [d] = (
        await eventually(
          () => deliveries(down.id),
          (l) => l.data[0]?.status === 'failed',
        )
      ).data;
      expect(d).toMatchObject({ status: 'failed', attempts: 1, last_error: expect.stringMatching(/inactive or disabled/) });
      expect(receiver.at('/down')).toHaveLength(1);
      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${down.id}/ping`).set(bearer(admin)), 409);
      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${down.id}/deliveries/${d.id}/redeliver`).set(bearer(admin)), 409);

      receiver.on('/down', () => ({ status: 200 }));
      const again = await api().put(`/api/v1/webhooks/${down.id}`).set(bearer(admin)).send({ active: true });
      expect(again.body.data).toMatchObject({ active: true, disabled_at: null, disabled_reason: null, failing_since: null });
      expect((await api().post(`/api/v1/webhooks/${down.id}/deliveries/${d.id}/redeliver`).set(bearer(admin))).status).toBe(202);
      await receiver.waitFor('/down', (g) => g.length >= 2);
    });

    it('queues again a due delivery whose job was lost (the sweep), with the same delivery id', async () => {
      const [first] = receiver.at('/sales');
      const before = receiver.at('/sales').filter((r) => r.deliveryId === first.deliveryId).length;
      // As after a Redis restart that lost the queue: the row says pending and due, no job exists.
      await t.db.query("UPDATE webhook_deliveries SET status = 'pending', next_attempt_at = ?, round_start = attempts WHERE uuid = ?", [
        sqlTime(t, new Date(Date.now() - 60_000)),
        first.deliveryId,
      ]);
      const got = await receiver.waitFor('/sales', (g) => g.filter((r) => r.deliveryId === first.deliveryId).length > before, 15_000);
      expect(got.filter((r) => r.deliveryId === first.deliveryId).length).toBe(before + 1);
      await eventually(
        () => detail(sales.id, first.deliveryId),
        (x) => x.status === 'delivered',
      );
    });

    it('relays each event once even with several relays at once', async () => {
      const relay = s.runner.get(OutboxRelayService);
      const [{ maxId }] = await t.db.query('SELECT COALESCE(MAX(id), 0) AS maxId FROM outbox_events');
      const values = Array.from({ length: 300 }, (_, i) => `('customer.updated', NULL, '{"n":${i}}', ?, NULL)`).join(', ');
      await t.db.query(
        `INSERT INTO outbox_events (type, store_id, payload, created_at, published_at) VALUES ${values}`,
        Array(300).fill(sqlTime(t, new Date())),
      );
      const runs = await Promise.all([relay.relayOnce(), relay.relayOnce(), relay.relayOnce(), relay.relayOnce()]);
      const claimed = runs.flatMap((r) => r.events);
      expect(new Set(claimed).size).toBe(claimed.length);
      await eventually(
        async () => Number((await t.db.query('SELECT COUNT(*) AS n FROM outbox_events WHERE id > ? AND published_at IS NULL', [maxId]))[0].n),
        (n) => n === 0,
      );
      const all = (await api().get('/api/v1/webhooks').set(bearer(admin))).body.data.find((e: { url: string }) => e.url.endsWith('/all'));
      const perEvent = await t.db.query('SELECT event_id, COUNT(*) AS n FROM webhook_deliveries WHERE endpoint_id = ? AND event_id > ? GROUP BY event_id', [
        all.id,
        maxId,
      ]);
      expect(perEvent).toHaveLength(300);
      expect(perEvent.every((r: { n: number | string }) => Number(r.n) === 1)).toBe(true);
      const got = await receiver.waitFor('/all', (g) => g.filter((r) => r.body.id > Number(maxId)).length >= 300, 30_000);
      const ids = got.filter((r) => r.body.id > Number(maxId)).map((r) => r.body.id);
      expect(new Set(ids).size).toBe(300);
    });

    (usingMysql() ? it : it.skip)('a relay claim never makes a change wait to write its event (MySQL: READ COMMITTED, no gap locks)', async () => {
      const relay = s.runner.get(OutboxRelayService);
      const outbox = s.runner.get(OutboxRelayRepository);
      const insert = "INSERT INTO outbox_events (type, store_id, payload, created_at, published_at) VALUES ('customer.updated', NULL, '{}', NOW(3), NULL)";
      // The worker's own relay runs meanwhile and may claim the new event first: then try again,
      // until this transaction holds a claim while another connection writes.
      let waited: number | null = null;
      for (let attempt = 0; attempt < 20 && waited === null; attempt++) {
        await t.db.query(insert);
        waited = await relay.inRelayTransaction(async (): Promise<number | null> => {
          if (!(await outbox.claimUnpublished(200)).length) return null;
          // another connection writes an event, as a sale committing now would
          const sale = t.db.createQueryRunner();
          try {
            await sale.query('SET SESSION innodb_lock_wait_timeout = 2');
            const started = Date.now();
            await sale.query(insert);
            return Date.now() - started;
          } finally {
            await sale.release();
          }
        });
      }
      expect(waited).not.toBeNull();
      expect(waited).toBeLessThan(1000);
    });

    it('deleting an endpoint while an attempt is in flight ends quietly (no error, no retry)', async () => {
      receiver.on('/slow', () => ({ status: 200, delayMs: 1500 }));
      const slow = await endpointFor('/slow', ['ping']);
      const res = await api().post(`/api/v1/webhooks/${slow.id}/ping`).set(bearer(admin));
      await receiver.waitFor('/slow', (g) => g.length >= 1);
      const mark = logged.length;
      expect((await api().delete(`/api/v1/webhooks/${slow.id}`).set(bearer(admin))).status).toBe(200);
      await new Promise((r) => setTimeout(r, 4000));
      expect(logged.slice(mark).filter((line) => /"level":(40|50)/.test(line))).toEqual([]);
      expect(await t.db.query('SELECT id FROM webhook_deliveries WHERE uuid = ?', [res.body.data.id])).toEqual([]);
      expect(receiver.at('/slow')).toHaveLength(1);
    });

    it('purges delivery logs and published events past the retention period (events: EVENT_RETENTION_DAYS, with their deliveries)', async () => {
      const maintenance = s.runner.get(WebhookMaintenanceService);
      const old = sqlTime(t, new Date(Date.now() - 31 * 86_400_000));
      const [gone] = (await api().get('/api/v1/webhooks').set(bearer(admin))).body.data.filter((e: { url: string }) => e.url.endsWith('/gone'));
      const [d] = await t.db.query('SELECT id, event_id FROM webhook_deliveries WHERE endpoint_id = ?', [gone.id]);
      await t.db.query('UPDATE webhook_deliveries SET updated_at = ? WHERE id = ?', [old, d.id]);
      await t.db.query('UPDATE outbox_events SET published_at = ?, created_at = ? WHERE id = ?', [old, old, d.event_id]);
      const [{ n: recent }] = await t.db.query('SELECT COUNT(*) AS n FROM webhook_deliveries');
      const [{ n: others }] = await t.db.query('SELECT COUNT(*) AS n FROM webhook_deliveries WHERE event_id = ? AND id <> ?', [d.event_id, d.id]);
      const result = await maintenance.purge();
      expect(result).toEqual({ deliveries: 1 + Number(others), events: 1 });
      expect(await t.db.query('SELECT id FROM webhook_deliveries WHERE id = ?', [d.id])).toEqual([]);
      expect(await t.db.query('SELECT id FROM webhook_delivery_attempts WHERE delivery_id = ?', [d.id])).toEqual([]);
      expect(await t.db.query('SELECT id FROM outbox_events WHERE id = ?', [d.event_id])).toEqual([]);
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM webhook_deliveries'))[0].n)).toBe(Number(recent) - 1 - Number(others));
      expect(await maintenance.purge()).toEqual({ deliveries: 0, events: 0 });
    });
  });

  it('never writes a signing secret to the log', async () => {
    const text = logged.join('');
    expect(text).toMatch(/"level":\d+/); // the capture works: pino lines were seen
    expect(secrets.length).toBeGreaterThanOrEqual(8);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice('whsec_'.length));
    }
  });
});
