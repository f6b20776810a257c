import request from 'supertest';
import { ReportRunner } from '@pos/integration';
import { reportsInFlight } from '../../apps/api/src/integration/report-requests';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS } from './report-helpers';

/** Identical report requests in flight share one computation and one answer; different ones never do. */
describe('Report request coalescing', () => {
  let t: TestApp;
  let token: string;
  let calls: string[];

  beforeAll(async () => {
    t = await startTestApp();
    token = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
    const runner = t.app.get(ReportRunner);
    const original = runner.run.bind(runner);
    calls = [];
    // A slow computation, so requests overlap whatever the machine's speed.
    jest.spyOn(runner, 'run').mockImplementation(async (report, p, f, id, rows) => {
      calls.push(JSON.stringify({ report: report.route, stores: p.stores, f, rows }));
      await new Promise((r) => setTimeout(r, 600));
      return original(report, p, f, id, rows);
    });
  });
  afterAll(async () => {
    jest.restoreAllMocks();
    await t.close();
  });

  const get = (tok: string, query: Record<string, string | number> = {}) =>
    request(t.http).get('/api/v1/integration/reports/sales').set(bearer(tok)).query(query);

  it('five identical requests at once: one computation, the same bytes for all', async () => {
    calls.length = 0;
    const answers = await Promise.all([1, 2, 3, 4, 5].map(() => get(token)));
    expect(calls).toHaveLength(1);
    for (const a of answers) {
      expect(a.status).toBe(200);
      expect(a.headers['content-type']).toMatch(/^application\/json/);
      expect(a.text).toBe(answers[0].text);
    }
    expect(answers[0].body.success).toBe(true);
    expect(reportsInFlight()).toBe(0);
  });

  it('requests after one is answered compute again (nothing is kept)', async () => {
    calls.length = 0;
    const first = await get(token);
    const second = await get(token);
    expect(calls).toHaveLength(2);
    expect(new Date(second.body.meta.generated_at).getTime()).toBeGreaterThanOrEqual(new Date(first.body.meta.generated_at).getTime());
  });

  it('other filters, another page of rows, or callers who see other stores, are computed on their own', async () => {
    const admin = await login(t, DEMO.admin);
    const scoped = await request(t.http)
      .post('/api/v1/api-applications')
      .set(bearer(admin))
      .send({ name: 'Downtown only', permissions: ALL_REPORT_PERMISSIONS, store_ids: [1] });
    const downtown = (
      await request(t.http)
        .post(`/api/v1/api-applications/${scoped.body.data.id}/tokens`)
        .set(bearer(admin))
        .send({ name: 'r', abilities: ['integration:read'] })
    ).body.data.token as string;
    calls.length = 0;
    const [all, storeOne, scopedAll, onePerPage] = await Promise.all([get(token), get(token, { store_id: 1 }), get(downtown), get(token, { per_page: 1 })]);
    expect(calls).toHaveLength(4);
    expect([all.status, storeOne.status, scopedAll.status, onePerPage.status]).toEqual([200, 200, 200, 200]);
    expect([all.body.meta.rows.per_page, onePerPage.body.meta.rows.per_page]).toEqual([500, 1]);
    expect(scopedAll.body.meta.filters.time_zone).toBe('America/New_York');
    expect(all.body.meta.filters.time_zone).toBe('UTC');
  });

  it('an error is answered to every waiter, and the next request tries again', async () => {
    calls.length = 0;
    const answers = await Promise.all([1, 2].map(() => get(token, { store_id: 999 })));
    for (const a of answers) expect(a.status).toBe(422);
    expect(reportsInFlight()).toBe(0);
  });
});
