import fc from 'fast-check';
import request from 'supertest';
import { PERMISSIONS } from '@pos/identity';
import { bearer, DEMO, integrationToken, login, startTestApp, TestApp } from '../support/test-app';
import { profileKnob } from '../support/profile';
import { Json, OpenApiDoc, Operation, ResponseChecker, SATURATING, SATURATING_EVERYWHERE, SchemaTools, structural } from '../support/openapi-fuzz';

/**
 * Property-based fuzzing of every operation of the served OpenAPI document (issue 16, "Done
 * means"). For each operation: FUZZ_RUNS generated requests (fixed seed FUZZ_SEED), with an
 * admin or a cashier token, built from the operation's own parameter and body schemas plus
 * hostile values. Each answer must be below 500, a documented status, and (JSON) match the
 * documented schema for it. `npm test` runs a small profile (5 per operation); TEST_PROFILE=full
 * (CI's MySQL stage) 40, FUZZ_RUNS any other (test/support/profile.ts). Traffic goes to the in-process server only; generated URLs are loopback.
 */
const RUNS = profileKnob('FUZZ_RUNS', 5, 40);
const SEED = Number(process.env.FUZZ_SEED ?? 20251116);
const METHODS = ['get', 'post', 'put', 'delete', 'patch'] as const;

/** encodeURIComponent, except that a lone surrogate goes out as its (invalid UTF-8) CESU-8 bytes. */
function percentEncode(value: string): string {
  try {
    return encodeURIComponent(value);
  } catch {
    return [...value]
      .map((ch) => {
        const code = ch.charCodeAt(0);
        if (ch.length === 1 && code >= 0xd800 && code <= 0xdfff)
          return `%${(0xe0 | (code >> 12)).toString(16)}%${(0x80 | ((code >> 6) & 0x3f)).toString(16)}%${(0x80 | (code & 0x3f)).toString(16)}`.toUpperCase();
        return encodeURIComponent(ch);
      })
      .join('');
  }
}

interface Failure {
  op: string;
  status: number;
  problem: string;
  request: string;
}

describe('Fuzz: every operation of the OpenAPI document, no 5xx, documented status and schema', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  let tools: SchemaTools;
  let checker: ResponseChecker;
  const tokens: Record<'admin' | 'cashier' | 'integration', string> = { admin: '', cashier: '', integration: '' };

  beforeAll(async () => {
    t = await startTestApp();
    tokens.admin = await login(t, DEMO.admin);
    tokens.cashier = await login(t, DEMO.cashier);
    // Integration routes need an API application token (admin and cashier get 403 there).
    tokens.integration = (await integrationToken(t, [...PERMISSIONS])).token;
    await request(t.http).post('/api/v1/sessions/open').set(bearer(tokens.cashier)).send({ store_id: 1, opening_balance: 100 });
    doc = (await request(t.http).get('/api/docs-json')).body as OpenApiDoc;
    tools = new SchemaTools(doc);
    checker = new ResponseChecker(doc);
  });
  afterAll(() => t.close());

  const operations = (): [string, string, Operation][] =>
    Object.entries(doc.paths).flatMap(([path, item]) => METHODS.filter((m) => item[m]).map((m) => [m, path, item[m]] as [string, string, Operation]));

  interface Generated {
    who: 'admin' | 'cashier' | 'integration';
    path: Record<string, string>;
    query: Record<string, Json>;
    body: Json | undefined;
    rawBody?: string;
  }

  function arbitraryFor(path: string, op: Operation): fc.Arbitrary<Generated> {
    const who = /\/integrations?\//.test(path)
      ? fc.constantFrom<Generated['who']>('integration', 'integration', 'admin')
      : fc.constantFrom<Generated['who']>('admin', 'cashier');
    const params = op.parameters ?? [];
    const pathArb = fc.record(
      Object.fromEntries(
        params
          .filter((p) => p.in === 'path')
          .map((p) => [
            p.name,
            fc.oneof(
              { arbitrary: fc.constantFrom('1', '2', '3'), weight: 6 },
              { arbitrary: fc.integer({ min: 1, max: 60 }).map(String), weight: 2 },
              { arbitrary: fc.constantFrom('0', '-1', 'abc', '1.5', '99999999999999999999', "1' OR '1'='1", 'EUR', 'usd', '%F0%9F%98%80'), weight: 1 },
            ),
          ]),
      ),
    );
    const queryArb = fc.record(
      Object.fromEntries(
        params
          .filter((p) => p.in === 'query')
          .map((p) => [p.name, fc.oneof({ arbitrary: tools.valid(p.schema, p.name), weight: 4 }, { arbitrary: tools.fuzzed(p.schema, p.name), weight: 1 })]),
      ),
      { requiredKeys: params.filter((p) => p.in === 'query' && p.required).map((p) => p.name) },
    );
    const bodySchema = op.requestBody?.content['application/json']?.schema;
    const bodyArb: fc.Arbitrary<{ body: Json | undefined; rawBody?: string }> = bodySchema
      ? fc.oneof(
          { arbitrary: tools.valid(bodySchema).map((body) => ({ body })), weight: 5 },
          { arbitrary: tools.fuzzed(bodySchema).map((body) => ({ body })), weight: 4 },
          { arbitrary: structural().map((rawBody) => ({ body: undefined, rawBody })), weight: 1 },
        )
      : fc.constant({ body: undefined });
    return fc
      .tuple(who, pathArb, queryArb, bodyArb)
      .map(([who, path, query, b]) => ({ who, path: path as Record<string, string>, query: query as Record<string, Json>, ...b }));
  }

  /**
   * Systematic hostile requests: each SATURATING value in every optional body field at once, then
   * in every body field, and in every optional query parameter at once (existing ids in the path).
   */
  function saturatedRequests(path: string, op: Operation): Generated[] {
    if (/\/auth\/login$/.test(path)) return [];
    const who: Generated['who'] = /\/integrations?\//.test(path) ? 'integration' : 'admin';
    const pathIds = Object.fromEntries((op.parameters ?? []).filter((p) => p.in === 'path').map((p) => [p.name, '1']));
    const query = (op.parameters ?? []).filter((p) => p.in === 'query');
    const requiredQuery = Object.fromEntries(query.filter((p) => p.required).map((p) => [p.name, tools.example(p.schema, p.name)]));
    const bodySchema = op.requestBody?.content['application/json']?.schema;
    const out: Generated[] = [];
    for (const bad of SATURATING) {
      if (bodySchema) {
        out.push({ who, path: pathIds, query: requiredQuery, body: tools.saturated(bodySchema, bad, false) });
        if (SATURATING_EVERYWHERE.includes(bad)) out.push({ who, path: pathIds, query: requiredQuery, body: tools.saturated(bodySchema, bad, true) });
      }
      if (query.some((p) => !p.required)) {
        out.push({
          who,
          path: pathIds,
          query: { ...Object.fromEntries(query.map((p) => [p.name, bad])), ...requiredQuery },
          body: bodySchema ? tools.example(bodySchema) : undefined,
        });
      }
    }
    return out;
  }

  async function send(method: string, template: string, g: Generated): Promise<{ res: request.Response; described: string }> {
    const url = template.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(g.path[name] ?? '1'));
    const qs = Object.entries(g.query)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => `${encodeURIComponent(k)}=${percentEncode(typeof v === 'string' ? v : JSON.stringify(v))}`)
      .join('&');
    const full = qs ? `${url}?${qs}` : url;
    // Logging out revokes the token: use a fresh one for that operation.
    const token = /\/auth\/logout$/.test(template) ? await login(t, g.who === 'admin' ? DEMO.admin : DEMO.cashier) : tokens[g.who];
    let req = (request(t.http) as unknown as Record<string, (u: string) => request.Test>)[method](full).set(bearer(token));
    if (g.rawBody !== undefined) req = req.set('Content-Type', 'application/json').send(g.rawBody);
    else if (g.body !== undefined) req = req.set('Content-Type', 'application/json').send(JSON.stringify(g.body));
    const res = await req;
    const shownBody = g.rawBody !== undefined ? g.rawBody.slice(0, 200) : JSON.stringify(g.body)?.slice(0, 400);
    return { res, described: `${method.toUpperCase()} ${full.slice(0, 300)} as ${g.who}${shownBody ? ` body ${shownBody}` : ''}` };
  }

  it(
    `answers ${RUNS} generated requests per operation (seed ${SEED}) with documented statuses and schemas`,
    async () => {
      const failures: Failure[] = [];
      const statuses = new Map<number, number>();
      let total = 0;
      for (const [i, [method, path, op]] of operations().entries()) {
        // Login costs an argon2 verification per request: fewer runs there.
        const runs = /\/auth\/login$/.test(path) ? Math.min(RUNS, 4) : RUNS;
        const samples = fc.sample(arbitraryFor(path, op), { seed: SEED + i, numRuns: runs });
        for (const g of [...samples, ...saturatedRequests(path, op)]) {
          const { res, described } = await send(method, path, g);
          total++;
          statuses.set(res.status, (statuses.get(res.status) ?? 0) + 1);
          const opName = `${method.toUpperCase()} ${path}`;
          if (res.status >= 500) {
            failures.push({ op: opName, status: res.status, problem: `5xx: ${JSON.stringify(res.body).slice(0, 200)}`, request: described });
            continue;
          }
          const problem = checker.check(op, res.status, res.body, String(res.headers['content-type'] ?? ''));
          if (problem) failures.push({ op: opName, status: res.status, problem, request: described });
        }
      }
      // Re-authenticate if a generated request happened to revoke or disable something shared.
      const summary = [...statuses].sort((a, b) => a[0] - b[0]).map(([s, n]) => `${s}:${n}`);
      if (failures.length) {
        const unique = new Map<string, Failure>();
        for (const f of failures) unique.set(`${f.op} ${f.status} ${f.problem.slice(0, 80)}`, f);
        throw new Error(
          `${failures.length} of ${total} fuzzed requests failed (${unique.size} distinct; statuses ${summary.join(' ')}):\n` +
            [...unique.values()].map((f) => `- ${f.op} -> ${f.status}: ${f.problem}\n    ${f.request}`).join('\n'),
        );
      }
      process.stdout.write(`fuzz: ${total} requests over ${operations().length} operations, statuses ${summary.join(' ')}\n`);
      expect(total).toBeGreaterThan(operations().length);
    },
    // A backstop that grows with the work (about 150 operations x RUNS requests), never below jest's
    // 10 minutes: a slow machine takes longer, it does not fail. Not a speed check.
    Math.max(600_000, RUNS * 150 * 500),
  );
});
