import request from 'supertest';
import { integrationToken, startTestApp, TestApp } from '../support/test-app';
import { ALL_REPORT_PERMISSIONS, expectReportShape, report, REPORTS } from './report-helpers';

describe('reports smoke', () => {
  let t: TestApp;
  let token: string;
  beforeAll(async () => {
    t = await startTestApp();
    token = (await integrationToken(t, ALL_REPORT_PERMISSIONS)).token;
  });
  afterAll(() => t.close());

  it('OpenAPI documents every report under both prefixes: permission, the 2.6 payload, 422 and 403', async () => {
    const doc = (await request(t.http).get('/api/docs-json')).body as { paths: Record<string, { get?: Record<string, unknown> }> };
    for (const [path, permission] of REPORTS) {
      for (const prefix of ['integration', 'integrations']) {
        const key = `/api/v1/${prefix}/reports/${path.replace('cashier/3', 'cashier/{cashier}')}`;
        const op = doc.paths[key]?.get as {
          responses: Record<string, { content?: { 'application/json': { schema: { properties: Record<string, unknown> } } } }>;
          'x-permission': string;
        };
        expect([key, Boolean(op)]).toEqual([key, true]);
        expect(op['x-permission']).toContain(permission);
        expect(Object.keys(op.responses['200'].content!['application/json'].schema.properties)).toEqual(['success', 'data', 'meta']);
        expect(Object.keys(op.responses)).toEqual(expect.arrayContaining(['200', '401', '403', '422']));
      }
    }
  });

  it.each(REPORTS)('%s answers 200', async (path) => {
    const res = await report(t, token, path);
    if (res.status !== 200) console.log(path, res.status, JSON.stringify(res.body));
    expectReportShape(res);
  });
});
