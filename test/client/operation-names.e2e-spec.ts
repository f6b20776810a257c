import request from 'supertest';
import { LEGACY_ALIAS_SUFFIX, OPERATION_NAMES, operationName } from '../../apps/api/src/http/operation-names';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27 item 10: operations are named for people, once, in apps/api/src/http/operation-names.ts.
 * Walks the served document: every operation is named by the map or its rules (a new route
 * without a name fails here, with the name Nest gave it), names are unique camelCase, the
 * /integrations/ aliases are deprecated, and no map entry outlives its route.
 */
interface Op {
  operationId?: string;
  deprecated?: boolean;
  description?: string;
}

describe('OpenAPI operation names (operationId)', () => {
  let t: TestApp;
  const ops: { method: string; path: string; op: Op }[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    const doc = (await request(t.http).get('/api/docs-json')).body as { paths: Record<string, Record<string, Op>> };
    for (const [full, item] of Object.entries(doc.paths))
      for (const method of ['get', 'put', 'post', 'delete', 'patch'])
        if (item[method]) ops.push({ method: method.toUpperCase(), path: full.replace(/^\/api\/v1/, ''), op: item[method] });
  });
  afterAll(() => t?.close());

  it('names every operation by the map or its rules', () => {
    const unnamed = ops.filter((o) => operationName(o.method, o.path) === undefined).map((o) => `${o.method} ${o.path} (now ${o.op.operationId})`);
    expect(unnamed).toEqual([]);
    for (const o of ops) expect(o.op.operationId).toBe(operationName(o.method, o.path));
  });

  it('gives unique camelCase names', () => {
    const ids = ops.map((o) => o.op.operationId ?? '');
    const dupes = ids.filter((id, i) => ids.indexOf(id) !== i);
    expect(dupes).toEqual([]);
    expect(ids.filter((id) => !/^[a-z][A-Za-z0-9]*$/.test(id))).toEqual([]);
  });

  it('names the operations people look for', () => {
    const id = (key: string) => ops.find((o) => `${o.method} ${o.path}` === key)?.op.operationId;
    expect(id('POST /auth/login')).toBe('login');
    expect(id('POST /pos/checkout')).toBe('checkout');
    expect(id('POST /pos/checkout/validate')).toBe('validateCheckout');
    expect(id('GET /sales')).toBe('listSales');
    expect(id('GET /sales/{sale}')).toBe('getSale');
    expect(id('POST /items')).toBe('createItem');
    expect(id('GET /integration/reports/sales')).toBe('getIntegrationSalesReport');
    expect(id('GET /integrations/sales')).toBe('listIntegrationSalesLegacyAlias');
  });

  it('deprecates every /integrations/ alias, pointing at its /integration/ path', () => {
    const aliases = ops.filter((o) => o.path.startsWith('/integrations/'));
    const current = new Set(ops.filter((o) => o.path.startsWith('/integration/')).map((o) => `${o.method} ${o.path}`));
    expect(aliases.length).toBe(current.size); // contract part 5: every integration path has its alias
    for (const a of aliases) {
      expect({ at: `${a.method} ${a.path}`, deprecated: a.op.deprecated }).toEqual({ at: `${a.method} ${a.path}`, deprecated: true });
      expect(a.op.operationId?.endsWith(LEGACY_ALIAS_SUFFIX)).toBe(true);
      expect(a.op.description).toContain(`/api/v1${a.path.replace('/integrations/', '/integration/')}`);
      expect(current.has(`${a.method} ${a.path.replace('/integrations/', '/integration/')}`)).toBe(true);
    }
    expect(ops.filter((o) => !o.path.startsWith('/integrations/') && o.op.deprecated).map((o) => `${o.method} ${o.path}`)).toEqual([]);
  });

  it('keeps no name for a route that is gone', () => {
    const served = new Set(ops.map((o) => `${o.method} ${o.path}`));
    expect(Object.keys(OPERATION_NAMES).filter((key) => !served.has(key))).toEqual([]);
  });
});
