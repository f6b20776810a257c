import Ajv, { ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';

/**
 * Request generation and response checking driven by the served OpenAPI document (the fuzz
 * suite's engine). Arbitraries are built from each operation's parameter and body schemas:
 * mostly well-formed values (small ids that exist, amounts with 2 decimals, enum members) so
 * requests reach the use cases, mixed with hostile ones (exponents, null, huge, negative, deep,
 * wide, lone surrogates, control characters, bidi overrides, SQL and script fragments).
 * Any URL generated (webhook endpoints) points at loopback only.
 */
export type Json = null | boolean | number | string | Json[] | { [k: string]: Json };
export interface OpenApiDoc {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, SchemaLike>; securitySchemes?: Record<string, Record<string, unknown>> };
}
export interface Operation {
  operationId?: string;
  parameters?: { name: string; in: 'path' | 'query' | 'header'; required?: boolean; schema?: SchemaLike }[];
  requestBody?: { required?: boolean; content: Record<string, { schema: SchemaLike }> };
  responses: Record<string, { description?: string; content?: Record<string, { schema?: SchemaLike }> }>;
  security?: unknown[];
  'x-permission'?: string;
}
export interface SchemaLike {
  $ref?: string;
  type?: string;
  format?: string;
  enum?: unknown[];
  nullable?: boolean;
  allOf?: SchemaLike[];
  anyOf?: SchemaLike[];
  oneOf?: SchemaLike[];
  items?: SchemaLike;
  properties?: Record<string, SchemaLike>;
  required?: string[];
  additionalProperties?: boolean | SchemaLike;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  maxItems?: number;
  multipleOf?: number;
  example?: unknown;
  description?: string;
  [k: string]: unknown;
}

export const LOOPBACK_URL = 'http://127.0.0.1:9/fuzz-hook';

const HOSTILE_NUMBERS: Json[] = [1e-7, 1.5e-9, -1, -0.01, 0, 1e21, 1e308, -1e308, 2147483648, 2 ** 53 + 2, 0.001, 99999999.999];
const HOSTILE_STRINGS: Json[] = [
  '',
  ' ',
  'x'.repeat(300),
  'x'.repeat(5000),
  'a\ud800b',
  '\udfff',
  'nul\u0000byte',
  'esc\u001b[31m',
  'bidi\u202etxt',
  'line\nbreak',
  "1' OR '1'='1",
  '1; DROP TABLE users; --',
  '<script>alert(1)</script>',
  '../../etc/passwd',
  '%00',
  '1e-7',
  'NaN',
  'Infinity',
  '-1',
  '0x10',
  '١٢٣',
  '😀'.repeat(100),
];
const HOSTILE_OTHER: Json[] = [null, true, false, [], {}, [null], { a: 1 }, [[[[[[[[]]]]]]]]];

/** Sent in every optional field at once (then in every field) of each operation, systematically. */
export const SATURATING: Json[] = [1e-7, null, 1e21, -1, 'a\ud800b', 'x\u0000y', 'x'.repeat(300), {}];
/** Of those, the ones also sent in every field (required ones included). */
export const SATURATING_EVERYWHERE: Json[] = [1e-7, null, 'a\ud800b', {}];

export const hostile = (): fc.Arbitrary<Json> => fc.constantFrom(...HOSTILE_NUMBERS, ...HOSTILE_STRINGS, ...HOSTILE_OTHER);

/** Deep and wide bodies (structure limits: 400). */
export const structural = (): fc.Arbitrary<string> =>
  fc.constantFrom(
    '{"a":' + '['.repeat(40) + ']'.repeat(40) + '}',
    JSON.stringify(Object.fromEntries(Array.from({ length: 1500 }, (_, i) => [`k${i}`, i]))),
    '[1,2,3]',
    '"just a string"',
    'null',
    '{"unterminated": ',
  );

export class SchemaTools {
  constructor(private readonly doc: OpenApiDoc) {}

  resolve(schema: SchemaLike | undefined): SchemaLike {
    let s = schema ?? {};
    for (let i = 0; i < 10 && s.$ref; i++) s = this.doc.components.schemas[s.$ref.replace('#/components/schemas/', '')] ?? {};
    if (s.allOf?.length === 1) return { ...this.resolve(s.allOf[0]), ...(s.nullable ? { nullable: true } : {}) };
    return s;
  }

  /** A mostly valid value for the schema; `name` steers ids and emails towards existing records. */
  valid(schema: SchemaLike | undefined, name = '', depth = 0): fc.Arbitrary<Json> {
    const s = this.resolve(schema);
    if (s.enum?.length) return fc.constantFrom(...(s.enum as Json[]));
    if (/(^|_)url$/.test(name) || s.format === 'uri') return fc.constant(LOOPBACK_URL);
    switch (s.type) {
      case 'integer': {
        const min = s.minimum ?? 0;
        const max = Math.min(s.maximum ?? 1_000_000, 1_000_000_000);
        const small = fc.integer({ min: Math.max(min, 1), max: Math.max(Math.min(max, 5), Math.max(min, 1)) });
        return fc.oneof({ arbitrary: small, weight: 4 }, { arbitrary: fc.integer({ min, max }), weight: 1 });
      }
      case 'number': {
        const min = Math.ceil((s.minimum ?? 0) * 100);
        const max = Math.floor(Math.min(s.maximum ?? 1_000_000, 1_000_000) * 100);
        const cents = fc.oneof(
          { arbitrary: fc.integer({ min, max: Math.min(max, Math.max(min, 2000)) }), weight: 4 },
          { arbitrary: fc.integer({ min, max }), weight: 1 },
        );
        return cents.map((c) => c / 100);
      }
      case 'boolean':
        return fc.boolean();
      case 'string':
        return this.validString(s, name);
      case 'array': {
        if (depth > 4) return fc.constant([]);
        const minLength = s.minItems ?? 0;
        const maxLength = Math.max(minLength, Math.min(s.maxItems ?? 3, 3));
        return fc.array(this.valid(s.items, name.replace(/s$/, ''), depth + 1), { minLength, maxLength });
      }
      case 'object':
      default: {
        if (!s.properties || depth > 5) return fc.constant({});
        const required = new Set(s.required ?? []);
        const model: Record<string, fc.Arbitrary<Json>> = {};
        for (const [key, prop] of Object.entries(s.properties)) model[key] = this.valid(prop, key, depth + 1);
        return fc.record(model, { requiredKeys: [...required].filter((k) => k in model) }) as fc.Arbitrary<Json>;
      }
    }
  }

  private validString(s: SchemaLike, name: string): fc.Arbitrary<Json> {
    if (s.format === 'date')
      return fc.oneof(
        fc.constantFrom('2024-01-01', '2025-06-30', '2030-12-31'),
        fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString().slice(0, 10)),
      );
    if (s.format === 'date-time') return fc.date({ min: new Date('2000-01-01'), max: new Date('2099-12-31'), noInvalidDate: true }).map((d) => d.toISOString());
    if (s.format === 'email' || /email/.test(name))
      return fc.oneof(fc.constantFrom('admin@example.com', 'manager@example.com', 'cashier@example.com'), fc.emailAddress());
    if (/(^|_)(id|code)$/.test(name) && !/idempotency/.test(name))
      return fc.oneof(fc.constantFrom('1', '2', '3', 'cash', 'card', 'on_account'), fc.integer({ min: 1, max: 40 }).map(String));
    const minLength = s.minLength ?? 0;
    const maxLength = Math.max(minLength, Math.min(s.maxLength ?? 40, 40));
    const examples = typeof s.example === 'string' ? [s.example] : [];
    return fc.oneof(
      { arbitrary: fc.string({ minLength, maxLength }).filter((x) => x.trim().length >= minLength), weight: 3 },
      { arbitrary: fc.stringMatching(/^[a-z0-9-]{1,24}$/).filter((x) => x.length >= minLength && x.length <= maxLength), weight: 3 },
      ...(examples.length ? [{ arbitrary: fc.constantFrom(...examples), weight: 1 }] : []),
    );
  }

  /** One deterministic valid value with every property present (small ids, enum members, examples). */
  example(schema: SchemaLike | undefined, name = '', depth = 0): Json {
    const s = this.resolve(schema);
    if (s.enum?.length) return s.enum[0] as Json;
    if (/(^|_)url$/.test(name) || s.format === 'uri') return LOOPBACK_URL;
    switch (s.type) {
      case 'integer':
        return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1);
      case 'number':
        return Math.min(Math.max(1, s.minimum ?? 1), s.maximum ?? 1);
      case 'boolean':
        return true;
      case 'string':
        if (s.format === 'date') return '2025-01-01';
        if (s.format === 'email' || /email/.test(name)) return 'cashier@example.com';
        if (typeof s.example === 'string') return s.example;
        return 'a'.repeat(Math.max(1, s.minLength ?? 1));
      case 'array':
        return depth > 4 ? [] : Array.from({ length: Math.max(1, s.minItems ?? 1) }, () => this.example(s.items, name, depth + 1));
      default:
        if (!s.properties || depth > 5) return {};
        return Object.fromEntries(Object.entries(s.properties).map(([k, v]) => [k, this.example(v, k, depth + 1)]));
    }
  }

  /**
   * The example with `bad` in every optional property (required ones stay valid, so the request
   * gets past "required" to the code behind), or in every property when `everywhere`.
   */
  saturated(schema: SchemaLike | undefined, bad: Json, everywhere: boolean, depth = 0): Json {
    const s = this.resolve(schema);
    if (s.type === 'array' && s.items) return [this.saturated(s.items, bad, everywhere, depth + 1)];
    if (!s.properties || depth > 5) return this.example(s);
    const required = new Set(s.required ?? []);
    return Object.fromEntries(
      Object.entries(s.properties).map(([k, v]) => {
        const inner = this.resolve(v);
        if (required.has(k) && (inner.type === 'object' || inner.type === 'array' || inner.properties))
          return [k, this.saturated(v, bad, everywhere, depth + 1)];
        return [k, everywhere || !required.has(k) ? bad : this.example(v, k, depth + 1)];
      }),
    );
  }

  /** The valid arbitrary with some values (anywhere in the structure) replaced by hostile ones. */
  fuzzed(schema: SchemaLike | undefined, name = ''): fc.Arbitrary<Json> {
    return fc.tuple(this.valid(schema, name), fc.array(fc.tuple(fc.nat(), hostile()), { minLength: 1, maxLength: 3 })).map(([value, hits]) => {
      let out = value;
      for (const [seed, bad] of hits) out = replaceAt(out, seed, bad);
      return out;
    });
  }
}

/** Replaces one node of `value` (chosen by `seed` among its leaves and containers) with `bad`. */
function replaceAt(value: Json, seed: number, bad: Json): Json {
  const slots: { set: (v: Json) => void }[] = [];
  const root = { v: structuredClone(value) as Json };
  const walk = (holder: Record<string, Json> | Json[], key: string | number) => {
    const v = (holder as Record<string, Json>)[key as string];
    slots.push({ set: (x) => ((holder as Record<string, Json>)[key as string] = x) });
    if (Array.isArray(v)) v.forEach((_, i) => walk(v, i));
    else if (v && typeof v === 'object') Object.keys(v).forEach((k) => walk(v, k));
  };
  walk(root as unknown as Record<string, Json>, 'v');
  if (root.v && typeof root.v === 'object' && !Array.isArray(root.v) && seed % 5 === 0) {
    // sometimes add an unknown key instead (mass assignment)
    (root.v as Record<string, Json>)[['is_super_admin', 'id', 'role_id', 'user_id', '__proto__x', 'constructor'][seed % 6]] = bad;
    return root.v;
  }
  slots[seed % slots.length].set(bad);
  return root.v;
}

/**
 * Ajv validators for the documented responses. OpenAPI 3.0 `nullable` becomes a JSON Schema
 * union with null, and every documented object closes (`additionalProperties: false`) unless it
 * says otherwise, so a field the document does not name is a failure too (ErrorEnvelope stays
 * open: some errors carry extra figures).
 */
export class ResponseChecker {
  private readonly ajv: Ajv;
  private readonly cache = new Map<string, ValidateFunction>();

  constructor(private readonly doc: OpenApiDoc) {
    this.ajv = new Ajv({ strict: false, allErrors: false, multipleOfPrecision: 6 });
    addFormats(this.ajv);
    for (const [name, schema] of Object.entries(doc.components.schemas)) {
      this.ajv.addSchema(toJsonSchema(schema, name !== 'ErrorEnvelope'), `#/components/schemas/${name}`);
    }
  }

  /** null when the body matches; else the first problem. */
  check(op: Operation, status: number, body: unknown, contentType: string): string | null {
    const documented = op.responses[String(status)] ?? op.responses.default;
    if (!documented) return `status ${status} is not documented (documented: ${Object.keys(op.responses).join(', ')})`;
    if (!/json/.test(contentType)) return null;
    const schema = documented.content?.['application/json']?.schema;
    if (!schema) return `status ${status} has no documented schema`;
    const key = JSON.stringify(schema);
    let validate = this.cache.get(key);
    if (!validate) {
      validate = this.ajv.compile(toJsonSchema(schema, true));
      this.cache.set(key, validate);
    }
    if (validate(body)) return null;
    const e = validate.errors?.[0];
    return `body does not match the documented ${status} schema: ${e?.instancePath || '/'} ${e?.message ?? ''} ${e?.params ? JSON.stringify(e.params) : ''}`;
  }
}

function toJsonSchema(schema: SchemaLike, close: boolean): Record<string, unknown> {
  const walk = (s: unknown): unknown => {
    if (Array.isArray(s)) return s.map(walk);
    if (!s || typeof s !== 'object') return s;
    const src = s as SchemaLike;
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(src)) {
      if (k === 'nullable' || k === 'example' || k === 'description') continue;
      out[k] = k === 'properties' ? Object.fromEntries(Object.entries(v as Record<string, unknown>).map(([pk, pv]) => [pk, walk(pv)])) : walk(v);
    }
    // OpenAPI 3.0's boolean exclusiveMinimum qualifies minimum; JSON Schema's is the bound itself.
    if (typeof src.exclusiveMinimum === 'boolean') {
      delete out.exclusiveMinimum;
      if (src.exclusiveMinimum) {
        out.exclusiveMinimum = src.minimum;
        delete out.minimum;
      }
    }
    if (close && src.properties && src.additionalProperties === undefined && src.$ref === undefined) out.additionalProperties = false;
    if (src.$ref) return { $ref: src.$ref };
    if (src.nullable) return { anyOf: [out, { type: 'null' }] };
    return out;
  };
  return walk(schema) as Record<string, unknown>;
}
