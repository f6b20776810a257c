import request from 'supertest';
import { bearer, DEMO, expectErrorEnvelope, login, startTestApp, TestApp } from '../support/test-app';
import { expectNo5xx, HOSTILE_IDS, LONG } from '../catalog/catalog-helpers';
import { appToken } from './pricing-helpers';

/**
 * Currencies (contract 4.8): list, show by id or code, conversion to the target's minor unit
 * with the latest effective rate (half away from zero), and recording rates.
 */
describe('Currencies and conversion', () => {
  let t: TestApp;
  let manager: string;
  let cashier: string;
  const id: Record<string, number> = {};

  const api = () => request(t.http);
  const convert = (query: string, token = cashier) => api().get(`/api/v1/currencies/convert?${query}`).set(bearer(token));
  const converted = async (amount: number | string, from: string, to: string) => {
    const res = await convert(`amount=${amount}&from=${from}&to=${to}`);
    expect(res.status).toBe(200);
    return res.body.data as { amount: number; from: string; to: string; rate: number; converted: number; decimals: number; rate_effective_at: string | null };
  };
  const setRate = (code: string, body: Record<string, unknown>, token = manager) =>
    api().post(`/api/v1/currencies/${code}/rates`).set(bearer(token)).send(body);

  beforeAll(async () => {
    t = await startTestApp();
    [manager, cashier] = await Promise.all([login(t, DEMO.manager), login(t, DEMO.cashier)]);
    for (const row of (await t.db.query('SELECT id, code FROM currencies')) as { id: number; code: string }[]) id[row.code] = Number(row.id);
  });
  afterAll(() => t.close());

  describe('GET /currencies and /currencies/{id or code}', () => {
    it('lists the active currencies, base first, with their minor-unit decimals', async () => {
      const res = await api().get('/api/v1/currencies').set(bearer(cashier));
      expect(res.status).toBe(200);
      expect(
        res.body.data.map((c: { code: string; decimals: number; is_base: boolean; is_active: boolean }) => [c.code, c.decimals, c.is_base, c.is_active]),
      ).toEqual([
        ['USD', 2, true, true],
        ['EUR', 2, false, true],
        ['JPY', 0, false, true],
      ]);
      expect(res.body.data[2]).toMatchObject({ id: id.JPY, name: 'Japanese Yen', symbol: '¥' });
    });

    it('shows a currency by id or ISO code (any case); unknown and hostile values are 404', async () => {
      for (const key of [String(id.EUR), 'EUR', 'eur', 'Eur']) {
        const res = await api().get(`/api/v1/currencies/${key}`).set(bearer(cashier));
        expect(res.status).toBe(200);
        expect(res.body.data).toMatchObject({ id: id.EUR, code: 'EUR', name: 'Euro', symbol: '€', decimals: 2, is_base: false });
      }
      expect((await api().get(`/api/v1/currencies/${id.JPY}`).set(bearer(cashier))).body.data).toMatchObject({ code: 'JPY', decimals: 0 });
      for (const key of ['XXX', '999999', 'EURO', 'EU', ...HOSTILE_IDS])
        expectErrorEnvelope(
          await api()
            .get(`/api/v1/currencies/${encodeURIComponent(key)}`)
            .set(bearer(cashier)),
          404,
        );
      expectErrorEnvelope(await api().get('/api/v1/currencies/USD'), 401);
      expectErrorEnvelope(
        await api()
          .get('/api/v1/currencies')
          .set(bearer(await appToken(t, ['items.view']))),
        403,
      );
    });
  });

  describe('GET /currencies/convert', () => {
    it("converts with the seeded rates to the target's minor unit, rounding half away from zero", async () => {
      expect(await converted(10, 'USD', 'JPY')).toMatchObject({ amount: 10, from: 'USD', to: 'JPY', rate: 149.5, converted: 1495, decimals: 0 });
      expect((await converted(0.5, 'USD', 'JPY')).converted).toBe(75); // 74.75
      expect((await converted(0.03, 'USD', 'JPY')).converted).toBe(4); // 4.485
      expect((await converted(0.01, 'USD', 'JPY')).converted).toBe(1); // 1.495
      expect(await converted(1000, 'JPY', 'USD')).toMatchObject({ converted: 6.69, decimals: 2, rate: 0.00668896 }); // 6.6889...
      expect(await converted(1, 'EUR', 'JPY')).toMatchObject({ converted: 163, rate: 162.5 }); // exactly 162.5
      expect(await converted(100, 'USD', 'EUR')).toMatchObject({ converted: 92, rate: 0.92, decimals: 2 });
      expect(await converted(92, 'EUR', 'USD')).toMatchObject({ converted: 100 });
      expect((await converted(10, 'EUR', 'USD')).converted).toBe(10.87); // 10.8695...
      expect(await converted(12.34, 'USD', 'USD')).toMatchObject({ converted: 12.34, rate: 1 });
      expect(await converted(0, 'USD', 'EUR')).toMatchObject({ converted: 0 });
      expect(await converted(5, 'usd', 'jpy')).toMatchObject({ from: 'USD', to: 'JPY', converted: 748 }); // 747.5
      expect((await converted(10, 'USD', 'JPY')).rate_effective_at).toEqual(expect.any(String));
    });

    it('answers bad parameters with 422 naming them', async () => {
      for (const [query, field] of [
        ['from=USD&to=EUR', 'amount'],
        ['amount=-1&from=USD&to=EUR', 'amount'],
        ['amount=abc&from=USD&to=EUR', 'amount'],
        ['amount=1.234&from=USD&to=EUR', 'amount'],
        ['amount=10.5&from=JPY&to=USD', 'amount'], // a fraction of a yen (was rounded to 11, silently)
        ['amount=0.4&from=JPY&to=USD', 'amount'],
        ['amount=1000000000000&from=USD&to=EUR', 'amount'],
        ['amount=1&to=EUR', 'from'],
        ['amount=1&from=US&to=EUR', 'from'],
        ['amount=1&from=USDX&to=EUR', 'from'],
        ['amount=1&from=XXX&to=EUR', 'from'],
        ['amount=1&from=USD', 'to'],
        ['amount=1&from=USD&to=XXX', 'to'],
        [`amount=1&from=${encodeURIComponent("' OR")}&to=EUR`, 'from'],
        [`amount=1&from=USD&to=${LONG}`, 'to'],
      ]) {
        const res = await convert(query);
        expectErrorEnvelope(res, 422, 'The given data was invalid.');
        expect([query.slice(0, 50), Object.keys(res.body.errors)]).toEqual([query.slice(0, 50), [field]]);
      }
      expectErrorEnvelope(await api().get('/api/v1/currencies/convert?amount=1&from=USD&to=EUR'), 401);
      expectErrorEnvelope(
        await api()
          .get('/api/v1/currencies/convert?amount=1&from=USD&to=EUR')
          .set(bearer(await appToken(t, ['items.view']))),
        403,
      );
      for (const q of [
        'amount=1e308&from=USD&to=JPY',
        'amount=999999999999&from=USD&to=JPY',
        'amount=999999999999&from=JPY&to=EUR',
        'amount=1&amount=2&from=USD&to=JPY',
        'amount[]=1&from=USD&to=JPY',
        `amount=${LONG}&from=USD&to=JPY`,
        'amount=1&from[$ne]=x&to=JPY',
      ]) {
        expectNo5xx(await convert(q), [200, 422]);
      }
    });
  });

  describe('POST /currencies/{code}/rates', () => {
    it('records a rate (201) that conversion then uses; a future or older rate does not replace it', async () => {
      const res = await setRate('EUR', { rate: 0.95 });
      expect(res.status).toBe(201);
      expect(res.body.data).toMatchObject({ currency: 'EUR', rate: 0.95, effective_at: expect.any(String) });
      const stamp = new Date(res.body.data.effective_at).getTime();
      expect(Math.abs(stamp - Date.now())).toBeLessThan(60_000);
      const eur = await converted(100, 'USD', 'EUR');
      expect(eur).toMatchObject({ converted: 95, rate: 0.95 });
      expect(Math.abs(new Date(eur.rate_effective_at!).getTime() - stamp)).toBeLessThan(1000);
      expect((await converted(1, 'EUR', 'JPY')).converted).toBe(157); // 149.5 / 0.95 = 157.37

      const future = await setRate('eur', { rate: 2, effective_at: '2099-01-01' });
      expect(future.status).toBe(201);
      expect(future.body.data).toMatchObject({ currency: 'EUR', rate: 2, effective_at: '2099-01-01T00:00:00.000Z' });
      expect(await setRate('EUR', { rate: 3, effective_at: '2020-01-01T00:00:00Z' })).toHaveProperty('status', 201);
      expect((await converted(100, 'USD', 'EUR')).converted).toBe(95);

      expect((await setRate('JPY', { rate: 150.25 })).status).toBe(201);
      expect(await converted(3, 'USD', 'JPY')).toMatchObject({ converted: 451, rate: 150.25 }); // 450.75
      expect((await converted(1000, 'JPY', 'USD')).converted).toBe(6.66); // 6.6555...
    });

    it('keeps exchange rates to more than 2 decimals', async () => {
      const res = await setRate('EUR', { rate: 0.9234 });
      expect(res.status).toBe(201);
      expect(await converted(1000, 'USD', 'EUR')).toMatchObject({ converted: 923.4, rate: 0.9234 });
    });

    it('refuses the base currency and bad rates with 422, unknown currencies with 404, a cashier with 403', async () => {
      const base = await setRate('USD', { rate: 1 });
      expectErrorEnvelope(base, 422);
      expect(Object.keys(base.body.errors)).toEqual(['rate']);
      for (const [body, field] of [
        [{}, 'rate'],
        [{ rate: 0 }, 'rate'],
        [{ rate: -1 }, 'rate'],
        [{ rate: 'abc' }, 'rate'],
        [{ rate: 1_000_001 }, 'rate'],
        [{ rate: 1, effective_at: 'soon' }, 'effective_at'],
        [{ rate: 1, effective_at: '2025-02-30' }, 'effective_at'],
      ] as [Record<string, unknown>, string][]) {
        const res = await setRate('EUR', body);
        expectErrorEnvelope(res, 422);
        expect([body, Object.keys(res.body.errors)]).toEqual([body, [field]]);
      }
      for (const code of ['XXX', 'EURO', ...HOSTILE_IDS]) expectErrorEnvelope(await setRate(encodeURIComponent(code), { rate: 1 }), 404);
      expectErrorEnvelope(await setRate('EUR', { rate: 5 }, cashier), 403);
      expectErrorEnvelope(await api().post('/api/v1/currencies/EUR/rates').send({ rate: 5 }), 401);
      expect((await converted(100, 'USD', 'EUR')).converted).not.toBe(500);
      for (const body of [{ rate: 1e308 }, { rate: '1; DROP TABLE exchange_rates' }, { rate: [1] }, { rate: 1, effective_at: LONG }, [{ rate: 1 }]]) {
        expectNo5xx(
          await api().post('/api/v1/currencies/EUR/rates').set(bearer(manager)).set('Content-Type', 'application/json').send(JSON.stringify(body)),
          [400, 422],
        );
      }
    });

    it('never answers a conversion too large for the target currency with a server error', async () => {
      expect((await setRate('JPY', { rate: 1_000_000 })).status).toBe(201);
      expectNo5xx(await convert('amount=999999999999&from=USD&to=JPY'), [200, 422]);
    });
  });
});
