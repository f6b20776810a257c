import request from 'supertest';
import { startTestApp, TestApp } from '../support/test-app';
import { OpenApiDoc, Operation, SchemaLike } from '../support/openapi-fuzz';

/**
 * Issue 16 item 13: the served document is one a generated client can trust. Walks every
 * operation of /api/docs-json and fails on: no 2xx response with a body schema, a missing error
 * status of its kind, an error response without the error envelope, an integer typed `number`,
 * a required string without minLength, an array without maxItems, money without its step.
 */
describe('OpenAPI document (GET /api/docs-json)', () => {
  let t: TestApp;
  let doc: OpenApiDoc;
  const ops: [string, Operation][] = [];

  beforeAll(async () => {
    t = await startTestApp();
    doc = (await request(t.http).get('/api/docs-json')).body as OpenApiDoc;
    for (const [path, item] of Object.entries(doc.paths))
      for (const m of ['get', 'post', 'put', 'delete', 'patch'] as const) if (item[m]) ops.push([`${m.toUpperCase()} ${path}`, item[m]]);
  });
  afterAll(() => t.close());

  const resolve = (s: SchemaLike | undefined): SchemaLike => {
    let out = s ?? {};
    while (out.$ref) out = doc.components.schemas[out.$ref.replace('#/components/schemas/', '')];
    return out.allOf?.length === 1 ? resolve(out.allOf[0]) : out;
  };

  it('documents every operation (128 and more)', () => {
    expect(ops.length).toBeGreaterThanOrEqual(128);
  });

  it('gives every operation a 2xx response with the envelope schema of its data', () => {
    const missing = ops.filter(([, op]) => {
      const ok = Object.entries(op.responses).filter(([status]) => /^2\d\d$/.test(status));
      return (
        ok.length === 0 ||
        ok.some(([, r]) => {
          const schema = resolve(r.content?.['application/json']?.schema);
          return !schema.properties?.success || (!schema.properties.data && !schema.properties.message);
        })
      );
    });
    expect(missing.map(([name]) => name)).toEqual([]);
  });

  it('documents the error statuses of each kind of operation, each with the error envelope', () => {
    const problems: string[] = [];
    for (const [name, op] of ops) {
      const has = (status: number) => op.responses[String(status)] !== undefined;
      const params = op.parameters ?? [];
      const expected = [
        ...(op.requestBody ? [400, 413, 415, 422] : []),
        ...(params.some((p) => p.in === 'query') ? [422] : []),
        ...(params.some((p) => p.in === 'path') ? [400, 404] : []),
        ...(op.security?.length ? [401, 403, 429] : []),
      ];
      for (const status of expected) if (!has(status)) problems.push(`${name}: no ${status}`);
      for (const [status, r] of Object.entries(op.responses)) {
        if (/^4\d\d$/.test(status) && r.content?.['application/json']?.schema?.$ref !== '#/components/schemas/ErrorEnvelope')
          problems.push(`${name}: ${status} without ErrorEnvelope`);
      }
    }
    expect(problems).toEqual([]);
  });

  it('states exact constraints: integers, required strings, arrays, money, percent maxima', () => {
    const problems: string[] = [];
    const walk = (where: string, schema: SchemaLike | undefined, required: boolean, seen = new Set<string>()) => {
      if (schema?.$ref) {
        if (seen.has(schema.$ref)) return;
        seen = new Set(seen).add(schema.$ref);
      }
      const s = resolve(schema);
      const name = where.split('.').pop() ?? '';
      if (s.type === 'number' && /(^|_)(id|page|qty|quantity|limit|priority|factor)$/.test(name)) problems.push(`${where}: integer typed number`);
      if (s.type === 'string' && required && !s.enum && !s.format && (s.minLength ?? 0) < 1) problems.push(`${where}: required string without minLength`);
      if (s.type === 'array' && s.maxItems === undefined) problems.push(`${where}: array without maxItems`);
      if (s.type === 'number' && s.multipleOf === undefined) problems.push(`${where}: number without multipleOf (decimal places)`);
      if (/percent/.test(name) && s.type === 'number' && s.maximum !== 100) problems.push(`${where}: percent without maximum 100`);
      if (s.type === 'array') walk(`${where}[]`, s.items, false, seen);
      for (const [k, v] of Object.entries(s.properties ?? {})) walk(`${where}.${k}`, v, (s.required ?? []).includes(k), seen);
    };
    for (const [name, op] of ops) {
      for (const p of op.parameters ?? []) if (p.in === 'query') walk(`${name} ?${p.name}`, p.schema, !!p.required);
      const body = op.requestBody?.content['application/json']?.schema;
      if (body) walk(`${name} body`, body, true);
    }
    expect(problems).toEqual([]);
  });

  it('documents nullable fields, numeric strings and the opaque bearer token', () => {
    const parentId = resolve(doc.components.schemas.CreateCategoryDto).properties?.parent_id;
    expect(parentId?.nullable).toBe(true);
    expect(resolve(doc.components.schemas.Customer).properties?.email?.nullable).toBe(true);
    expect((doc as unknown as { info: { description: string } }).info.description).toMatch(/numeric string/);
    const bearer = doc.components.securitySchemes?.bearer as { scheme?: string; bearerFormat?: string } | undefined;
    expect(bearer?.scheme).toBe('bearer');
    expect(bearer?.bearerFormat).toBe('opaque');
  });
});
