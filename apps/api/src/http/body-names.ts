import type { OpenAPIObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { getMetadataStorage } from 'class-validator';

// ---------------------------------------------------------------------------------------------
// Body field names: the contract's names, their obvious aliases, and unknown fields named
// ---------------------------------------------------------------------------------------------

/** The one message of a body field no route knows (the query twin: unknown-query.ts). */
export const UNKNOWN_FIELD_MESSAGE = 'Unknown field.';

const ALIASES = Symbol('FIELD_ALIASES');

/**
 * Accepts `alias` in a body wherever this property is expected: integrators write `item_id` and
 * `quantity` where checkout says `id` and `qty`, and the reverse on returns. The contract's name
 * stays the canonical one (responses, error keys of later checks); the validation pipe renames
 * the alias before validation, names it in its own errors, and refuses a body giving both with
 * different values (422 naming the alias). The OpenAPI schema lists it as a documented
 * alternative (`documentAliases`).
 */
export const AliasOf =
  (...aliases: string[]): PropertyDecorator =>
  (target, key) => {
    const own: Map<string, string> = Reflect.hasOwnMetadata(ALIASES, target)
      ? (Reflect.getOwnMetadata(ALIASES, target) as Map<string, string>)
      : new Map<string, string>();
    for (const alias of aliases) own.set(alias, String(key));
    Reflect.defineMetadata(ALIASES, own, target);
  };

/** DTO name -> its aliases (subclasses included), for the OpenAPI document. */
function aliasedDtos(): Map<string, ReadonlyMap<string, string>> {
  const out = new Map<string, ReadonlyMap<string, string>>();
  const storage = getMetadataStorage() as unknown as { validationMetadatas: Map<new () => object, unknown> };
  for (const cls of storage.validationMetadatas.keys()) {
    const aliases = typeof cls === 'function' ? aliasesOf(cls) : undefined;
    if (aliases?.size) out.set(cls.name, aliases);
  }
  return out;
}

const aliasCache = new WeakMap<object, ReadonlyMap<string, string>>();

/** alias -> canonical of a DTO (its own and its ancestors' declarations). */
export function aliasesOf(cls: new () => object): ReadonlyMap<string, string> {
  let out = aliasCache.get(cls);
  if (out) return out;
  const merged = new Map<string, string>();
  const chain: object[] = [];
  for (let proto: object | null = cls.prototype as object; proto && proto !== Object.prototype; proto = Object.getPrototypeOf(proto) as object | null)
    chain.unshift(proto);
  for (const proto of chain) {
    const own = Reflect.getOwnMetadata(ALIASES, proto) as Map<string, string> | undefined;
    own?.forEach((canonical, alias) => merged.set(alias, canonical));
  }
  out = merged;
  aliasCache.set(cls, out);
  return out;
}

/** Whether two JSON values are the same (an alias repeating its field is fine). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  return JSON.stringify(a) === JSON.stringify(b);
}

/** Field errors keyed by the names the client sent: `items.0.qty` back to `items.0.quantity`. */
export function renameErrorFields(fields: Record<string, string[]>, renamed: ReadonlyMap<string, string>): Record<string, string[]> {
  if (!renamed.size) return fields;
  const out: Record<string, string[]> = {};
  for (const [key, messages] of Object.entries(fields)) {
    const sent = renamed.get(key);
    out[sent ?? key] = sent ? messages.map((m) => m.split(`The ${key} field`).join(`The ${sent} field`)) : messages;
  }
  return out;
}

type SchemaLike = { properties?: Record<string, object>; required?: string[]; anyOf?: object[]; allOf?: object[]; additionalProperties?: boolean };

/**
 * The OpenAPI side: each alias appears beside its field (same schema, "Alias of ...") and a
 * required field becomes "this or its alias" (`anyOf` of the two `required`). Every request body
 * schema refuses unknown fields (`additionalProperties: false`), as the pipe does.
 */
export function documentBodyNames(document: OpenAPIObject, requestBodySchemas: ReadonlySet<string>): void {
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaLike>;
  for (const name of requestBodySchemas) {
    const schema = schemas[name];
    if (schema && schema.properties) schema.additionalProperties = false;
  }
  for (const [name, aliases] of aliasedDtos()) {
    const schema = schemas[name];
    if (!schema?.properties) continue;
    for (const [alias, canonical] of aliases) {
      const field = schema.properties[canonical];
      if (!field) continue;
      const { description } = field as { description?: string };
      schema.properties[alias] = {
        ...field,
        description: `Alias of \`${canonical}\`${description ? ` (${description})` : ''}: give either; both must agree (422 otherwise).`,
      };
      if (schema.required?.includes(canonical)) {
        schema.required = schema.required.filter((r) => r !== canonical);
        if (!schema.required.length) delete schema.required;
        schema.allOf = [...(schema.allOf ?? []), { anyOf: [{ required: [canonical] }, { required: [alias] }] }];
      }
    }
  }
}

/** Names of the component schemas used as request bodies (walks the document's operations). */
export function requestBodySchemaNames(document: OpenAPIObject): Set<string> {
  const names = new Set<string>();
  const schemas = (document.components?.schemas ?? {}) as Record<string, SchemaLike>;
  const visit = (ref: string | undefined) => {
    const name = ref?.split('/').pop();
    if (!name || names.has(name)) return;
    names.add(name);
    walk(schemas[name]);
  };
  const walk = (schema: unknown) => {
    if (!schema || typeof schema !== 'object') return;
    const s = schema as { $ref?: string; items?: unknown; properties?: Record<string, unknown>; allOf?: unknown[]; oneOf?: unknown[]; anyOf?: unknown[] };
    if (s.$ref) return visit(s.$ref);
    walk(s.items);
    Object.values(s.properties ?? {}).forEach(walk);
    [...(s.allOf ?? []), ...(s.oneOf ?? []), ...(s.anyOf ?? [])].forEach(walk);
  };
  for (const item of Object.values(document.paths ?? {})) {
    for (const op of Object.values(item as Record<string, { requestBody?: { content?: Record<string, { schema?: unknown }> } }>)) {
      if (op && typeof op === 'object' && op.requestBody?.content) Object.values(op.requestBody.content).forEach((c) => walk(c.schema));
    }
  }
  return names;
}
