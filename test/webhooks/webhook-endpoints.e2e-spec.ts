import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, TestApp } from '../support/test-app';
import { eventually, WebhookReceiver } from './receiver';
import { bootWebhooks, captureLogs, FAST, Stack, startStack, webhookTools } from './webhook-stack';

// Every log line the service writes is captured (not printed): the last test looks for secrets in it.
const logged = captureLogs();

/** Signed webhooks: the endpoints API and the SSRF guard. Setup and the helpers are in webhook-stack.ts. */
describe('Webhooks', () => {
  let s: Stack;
  let t: TestApp;
  let admin: string;
  let cashier: string;
  let receiver: WebhookReceiver;
  let beverage: number;
  const secrets: string[] = [];
  const { api, create } = webhookTools(() => ({ t, admin, cashier, receiver, beverage }), secrets);

  beforeAll(async () => {
    ({ s, t, admin, cashier, receiver, beverage } = await bootWebhooks());
  });
  afterAll(async () => {
    await s.close();
    await receiver.close();
  });

  describe('endpoints API', () => {
    it('needs webhooks.manage (admin has it; manager and cashier do not) and a token', async () => {
      const manager = await login(t, DEMO.manager);
      for (const token of [manager, cashier]) {
        expectErrorEnvelope(await create({ url: receiver.url('/x'), events: ['*'] }, token), 403);
        expectErrorEnvelope(await api().get('/api/v1/webhooks').set(bearer(token)), 403);
      }
      expectErrorEnvelope(await api().get('/api/v1/webhooks'), 401);
    });

    it('validates the body: url, events against the known kinds or *, description, active', async () => {
      const cases: [Record<string, unknown>, string[]][] = [
        [{ events: ['*'] }, ['url']],
        [{ url: receiver.url('/a') }, ['events']],
        [{ url: receiver.url('/a'), events: [] }, ['events']],
        [{ url: receiver.url('/a'), events: ['sale.completed', 'sale.exploded'] }, ['events']],
        [{ url: receiver.url('/a'), events: 'sale.completed' }, ['events']],
        [{ url: receiver.url('/a'), events: [42] }, ['events']],
        [{ url: 'ftp://127.0.0.1/x', events: ['*'] }, ['url']],
        [{ url: 'http://user:pw@127.0.0.1/x', events: ['*'] }, ['url']],
        [{ url: 'not a url', events: ['*'] }, ['url']],
        [{ url: '   ', events: ['*'] }, ['url']],
        [{ url: receiver.url('/a'), events: ['*'], description: 'd'.repeat(256) }, ['description']],
        [{ url: receiver.url('/a'), events: ['*'], active: 'sometimes' }, ['active']],
      ];
      for (const [body, fields] of cases) {
        const res = await create(body);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect(Object.keys(res.body.errors).sort()).toEqual(fields);
      }
      expect(Number((await t.db.query('SELECT COUNT(*) AS n FROM webhook_endpoints'))[0].n)).toBe(0);
    });

    it('creates (201) with the signing secret shown once and stored only sealed; lists, shows, updates, deletes', async () => {
      const res = await create({ url: receiver.url('/crud#frag'), events: ['sale.completed', 'sale.completed', 'ping'], description: ' Books ' });
      expect(res.status).toBe(201);
      const e = res.body.data;
      secrets.push(e.secret);
      expect(e).toMatchObject({
        url: receiver.url('/crud'),
        events: ['sale.completed', 'ping'],
        description: 'Books',
        active: true,
        disabled_at: null,
        failing_since: null,
      });
      expect(e.secret).toMatch(/^whsec_[A-Za-z0-9_-]{43}$/);
      const [row] = await t.db.query('SELECT secret_sealed FROM webhook_endpoints WHERE id = ?', [e.id]);
      expect(row.secret_sealed).not.toContain(e.secret);
      expect(row.secret_sealed).not.toContain(e.secret.slice(6, 20));

      const shown = await api().get(`/api/v1/webhooks/${e.id}`).set(bearer(admin));
      expect(shown.status).toBe(200);
      expect(shown.body.data.secret).toBeUndefined();
      expect(JSON.stringify(shown.body)).not.toContain(e.secret);
      const list = await api().get('/api/v1/webhooks?per_page=500').set(bearer(admin));
      expect(list.status).toBe(200);
      expect(list.body.meta).toMatchObject({ current_page: 1, per_page: 100 });
      expect(JSON.stringify(list.body)).not.toContain('whsec_');
      expectErrorEnvelope(await api().get('/api/v1/webhooks?per_page=0').set(bearer(admin)), 422);

      const updated = await api()
        .put(`/api/v1/webhooks/${e.id}`)
        .set(bearer(admin))
        .send({ events: ['*'], active: false });
      expect(updated.status).toBe(200);
      expect(updated.body.data).toMatchObject({ events: ['*'], active: false, url: receiver.url('/crud'), description: 'Books' });
      expectErrorEnvelope(
        await api()
          .put(`/api/v1/webhooks/${e.id}`)
          .set(bearer(admin))
          .send({ events: ['nope'] }),
        422,
      );
      expectErrorEnvelope(await api().put(`/api/v1/webhooks/${e.id}`).set(bearer(admin)).send({ url: '' }), 422);

      expectErrorEnvelope(await api().post(`/api/v1/webhooks/${e.id}/ping`).set(bearer(admin)), 409);
      const removed = await api().delete(`/api/v1/webhooks/${e.id}`).set(bearer(admin));
      expect(removed.status).toBe(200);
      expect(removed.body).toEqual({ success: true, message: 'Webhook endpoint deleted.' });
      for (const path of [`/api/v1/webhooks/${e.id}`, '/api/v1/webhooks/abc', '/api/v1/webhooks/999999', `/api/v1/webhooks/999999/deliveries`]) {
        expectErrorEnvelope(await api().get(path).set(bearer(admin)), 404);
      }
      expectErrorEnvelope(await api().delete(`/api/v1/webhooks/${e.id}`).set(bearer(admin)), 404);
    });

    it('documents every webhook route in OpenAPI with its envelope and errors', async () => {
      const doc = (await request(t.http).get('/api/docs-json')).body;
      const ops: [string, string, string][] = [
        ['/api/v1/webhooks', 'post', '201'],
        ['/api/v1/webhooks', 'get', '200'],
        ['/api/v1/webhooks/{webhook}', 'get', '200'],
        ['/api/v1/webhooks/{webhook}', 'put', '200'],
        ['/api/v1/webhooks/{webhook}', 'delete', '200'],
        ['/api/v1/webhooks/{webhook}/rotate-secret', 'post', '200'],
        ['/api/v1/webhooks/{webhook}/ping', 'post', '202'],
        ['/api/v1/webhooks/{webhook}/deliveries', 'get', '200'],
        ['/api/v1/webhooks/{webhook}/deliveries/{delivery}', 'get', '200'],
        ['/api/v1/webhooks/{webhook}/deliveries/{delivery}/redeliver', 'post', '202'],
      ];
      for (const [path, method, status] of ops) {
        const op = doc.paths[path]?.[method];
        expect(op).toBeDefined();
        expect(op['x-permission']).toBe('webhooks.manage');
        expect(op.responses[status].content['application/json'].schema).toBeDefined();
        for (const err of ['401', '403']) expect(op.responses[err]).toBeDefined();
      }
      expect(doc.paths['/api/v1/webhooks'].post.responses['422']).toBeDefined();
      expect(doc.components.schemas.CreatedWebhookEndpointSchema.properties.secret).toBeDefined();
    });
  });

  describe('SSRF guard (WEBHOOK_ALLOW_PRIVATE_TARGETS unset)', () => {
    let g: Stack;
    let token: string;

    beforeAll(async () => {
      g = await startStack({ ...FAST, WEBHOOK_ALLOW_PRIVATE_TARGETS: 'false' });
      token = await login(g.t, DEMO.admin);
    });
    afterAll(() => g.close());

    it('refuses loopback in every spelling, private, link-local (metadata), multicast and unspecified targets with 422', async () => {
      const port = receiver.port;
      // Issue 25 item 8: the message names the kind of address, never the address itself.
      const ipLiteral = /\b\d{1,3}(\.\d{1,3}){3}\b|(?<![0-9a-z:])[0-9a-f]{0,4}(:[0-9a-f]{0,4}){2,}/i;
      for (const [url, kind] of [
        [`http://127.0.0.1:${port}/x`, 'is a loopback address'],
        [`http://127.0.0.2:${port}/x`, 'is a loopback address'],
        [`http://127.1:${port}/x`, 'is a loopback address'],
        [`http://2130706433:${port}/x`, 'is a loopback address'],
        [`http://0x7f.0.0.1:${port}/x`, 'is a loopback address'],
        [`http://[::1]:${port}/x`, 'is a loopback address'],
        [`http://[::ffff:127.0.0.1]:${port}/x`, 'is a loopback address'],
        [`http://[0:0:0:0:0:ffff:7f00:1]:${port}/x`, 'is a loopback address'],
        [`http://localhost:${port}/x`, 'resolves to a loopback address'],
        [`http://0.0.0.0:${port}/x`, 'is an unspecified address'],
        [`http://[::]:${port}/x`, 'is an unspecified address'],
        ['http://169.254.169.254/latest/meta-data/', 'is a link-local address'],
        ['http://[fe80::1]/x', 'is a link-local address'],
        ['http://10.0.0.8/x', 'is a private address'],
        ['http://172.16.5.4/x', 'is a private address'],
        ['http://192.168.0.10/x', 'is a private address'],
        ['http://100.64.1.1/x', 'is a carrier-grade NAT address'],
        ['http://[fd00::1]/x', 'is a private address'],
        ['http://224.0.0.1/x', 'is a multicast address'],
        ['http://[ff02::1]/x', 'is a multicast address'],
        ['https://255.255.255.255/x', 'is the broadcast address'],
      ]) {
        const res = await request(g.t.http)
          .post('/api/v1/webhooks')
          .set(bearer(token))
          .send({ url, events: ['*'] });
        expectErrorEnvelope(res, 422);
        expect(res.body.errors.url[0]).toMatch(/webhooks may only target public addresses/);
        expect(res.body.errors.url[0]).toContain(`The url's host ${kind}:`);
        expect(JSON.stringify([res.body.message, res.body.errors])).not.toMatch(ipLiteral);
      }
      const update = await request(g.t.http)
        .put('/api/v1/webhooks/1')
        .set(bearer(token))
        .send({ url: `http://localhost:${port}/x` });
      expect([404, 422]).toContain(update.status);
      expect(Number((await g.t.db.query('SELECT COUNT(*) AS n FROM webhook_endpoints'))[0].n)).toBe(0);
    });

    it('checks again at delivery, on the address connected to: a name re-pointed at loopback is refused, nothing is sent', async () => {
      // Accepted while its name resolved to a public address (created inactive: nothing is ever sent
      // there), then the name points at loopback (DNS rebinding): simulated by rewriting the URL.
      const ids: number[] = [];
      for (const host of ['localhost', '127.0.0.1']) {
        const created = await request(g.t.http)
          .post('/api/v1/webhooks')
          .set(bearer(token))
          .send({ url: 'http://93.184.215.14/hook', events: ['*'], active: false });
        expect(created.status).toBe(201);
        secrets.push(created.body.data.secret);
        await g.t.db.query('UPDATE webhook_endpoints SET url = ? WHERE id = ?', [`http://${host}:${receiver.port}/rebound-${host}`, created.body.data.id]);
        expect((await request(g.t.http).put(`/api/v1/webhooks/${created.body.data.id}`).set(bearer(token)).send({ active: true })).status).toBe(200);
        ids.push(created.body.data.id);
      }
      const cust = await request(g.t.http).post('/api/v1/customers').set(bearer(token)).send({ name: 'Rebinding Test' });
      expect(cust.status).toBe(201);
      for (const id of ids) {
        const d = await eventually(
          async () => (await request(g.t.http).get(`/api/v1/webhooks/${id}/deliveries`).set(bearer(token))).body.data[0],
          (x) => x?.attempts >= 1,
        );
        const full = (await request(g.t.http).get(`/api/v1/webhooks/${id}/deliveries/${d.id}`).set(bearer(token))).body.data;
        expect(full.attempt_log[0]).toMatchObject({
          status_code: null,
          error: 'Refused: the target is a loopback address (SSRF guard)', // the kind, not where the name points
          remote_address: null,
        });
      }
      expect(receiver.received.filter((r) => r.path.startsWith('/rebound'))).toEqual([]);
    });
  });

  it('never writes a signing secret to the log', async () => {
    const text = logged.join('');
    expect(text).toMatch(/"level":\d+/); // the capture works: pino lines were seen
    expect(secrets.length).toBeGreaterThanOrEqual(2);
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(text).not.toContain(secret.slice('whsec_'.length));
    }
  });
});
