import { applyDecorators } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { MAX_CURRENCY_DECIMALS } from '@pos/kernel';
import type { OpenAPIObject, OperationObject, ReferenceObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { documentBodyNames, requestBodySchemaNames } from './body-names';
import { UNKNOWN_QUERY_DOC, UNKNOWN_QUERY_EXTENSION } from './unknown-query';
import { nameOperations } from './operation-names';

/**
 * OpenAPI for responses: what `data` really is, in the envelope, per operation.
 *
 *   const SessionView = defineView('Session', { id: s.int(), status: s.enum(['open', ...]), ... });
 *
 *   @ApiEnvelope(SessionView)                               200 {success, data: Session}
 *   @ApiEnvelope(SessionView, { status: 201 })              201
 *   @ApiEnvelope([SessionView])                             200 {success, data: Session[]}
 *   @ApiEnvelope(SessionView, { paginated: true })          200 {success, data: Session[], meta}
 *   @ApiEnvelope(SessionView, { nullable: true })           data may be null
 *   @ApiMessage()                                           200 {success, message} (deletes)
 *   @ApiErrors(409)                                         statuses specific to the operation
 *
 * Statuses every operation of a kind can answer are added to the document by `finishDocument`,
 * so no route can forget them: 400/413/415/422 with a body, 422 with query parameters, 404 with
 * a path parameter, 401/403/429 (from the route policy decorators), 503 on every operation. Each error status carries
 * the error envelope schema. `test/hardening/openapi.e2e-spec.ts` fails on an operation without
 * a 2xx schema, and the fuzz suite checks every answer against the documented status and schema.
 */
export type Schema = SchemaObject | ReferenceObject;

const VIEWS = new Map<string, ApiView>();

export class ApiView {
  constructor(
    readonly name: string,
    readonly schema: SchemaObject,
  ) {
    if (VIEWS.has(name) && VIEWS.get(name)!.schema !== schema) throw new Error(`OpenAPI view ${name} is defined twice`);
    VIEWS.set(name, this);
  }

  get ref(): ReferenceObject {
    return { $ref: `#/components/schemas/${this.name}` };
  }
}

/** A named response schema (a component of the document): every key required unless listed optional. */
export function defineView(name: string, properties: Record<string, Schema | ApiView>, o: { optional?: string[]; description?: string } = {}): ApiView {
  return new ApiView(name, s.object(properties, o));
}

/** The smallest step any currency's amounts take (0.0001). */
const MONEY_STEP = Number((10 ** -MAX_CURRENCY_DECIMALS).toFixed(MAX_CURRENCY_DECIMALS));

const asSchema = (x: Schema | ApiView): Schema => (x instanceof ApiView ? x.ref : x);

/** Schema builders, OpenAPI 3.0 flavour (nullable, not type arrays). */
export const s = {
  int: (description?: string): SchemaObject => ({ type: 'integer', ...(description ? { description } : {}) }),
  number: (description?: string): SchemaObject => ({ type: 'number', ...(description ? { description } : {}) }),
  /** An amount with its currency's decimals (USD 2, JPY 0, KWD 3): never more than MAX_CURRENCY_DECIMALS. */
  money: (description?: string): SchemaObject => ({ type: 'number', multipleOf: MONEY_STEP, ...(description ? { description } : {}) }),
  /** A percentage with up to 2 decimals (tax rates, discounts). */
  percent: (description?: string): SchemaObject => ({ type: 'number', minimum: 0, maximum: 100, multipleOf: 0.01, ...(description ? { description } : {}) }),
  string: (description?: string): SchemaObject => ({ type: 'string', ...(description ? { description } : {}) }),
  bool: (description?: string): SchemaObject => ({ type: 'boolean', ...(description ? { description } : {}) }),
  /** A boolean that is always this value (e.g. `success: true`). */
  constant: (value: boolean | string): SchemaObject => ({ type: typeof value === 'boolean' ? 'boolean' : 'string', enum: [value] }),
  dateTime: (description?: string): SchemaObject => ({ type: 'string', format: 'date-time', ...(description ? { description } : {}) }),
  enum: (values: readonly string[], description?: string): SchemaObject => ({ type: 'string', enum: [...values], ...(description ? { description } : {}) }),
  nullable: (x: Schema | ApiView): Schema => {
    const schema = asSchema(x);
    return '$ref' in schema ? { allOf: [schema], nullable: true } : { ...schema, nullable: true };
  },
  array: (items: Schema | ApiView, description?: string): SchemaObject => ({ type: 'array', items: asSchema(items), ...(description ? { description } : {}) }),
  object: (properties: Record<string, Schema | ApiView>, o: { optional?: string[]; description?: string } = {}): SchemaObject => ({
    type: 'object',
    properties: Object.fromEntries(Object.entries(properties).map(([k, v]) => [k, asSchema(v)])),
    required: Object.keys(properties).filter((k) => !o.optional?.includes(k)),
    ...(o.description ? { description: o.description } : {}),
  }),
  /** An object keyed by names (e.g. payment method codes) with values of one schema. */
  map: (values: Schema | ApiView, description?: string): SchemaObject => ({
    type: 'object',
    additionalProperties: asSchema(values),
    ...(description ? { description } : {}),
  }),
  /** Free-form JSON (documented as such). */
  any: (description: string): SchemaObject => ({ description }),
};

export const PaginationMeta = defineView('PaginationMeta', {
  current_page: s.int(),
  last_page: s.int(),
  per_page: s.int('The page size used (a per_page above the endpoint maximum is clamped)'),
  total: s.int(),
});

export const ErrorEnvelope = defineView(
  'ErrorEnvelope',
  {
    success: { type: 'boolean', enum: [false] },
    message: s.string(),
    errors: s.map(s.array(s.string()), 'Validation failures (422): dotted field name -> messages'),
    code: s.string('Stable machine code of a domain error'),
  },
  { optional: ['errors', 'code'], description: 'Every error. Some carry more fields (a checkout total mismatch: client_total, server_total).' },
);

type ViewArg = ApiView | [ApiView] | SchemaObject | null;

function dataSchema(data: ViewArg): Schema {
  if (data === null) return { nullable: true, description: 'Always null' } as SchemaObject;
  if (Array.isArray(data)) return s.array(data[0]);
  return asSchema(data);
}

/** The success envelope `{success: true, data, meta?}` of an operation. */
export function ApiEnvelope(data: ViewArg, o: { status?: number; paginated?: boolean; nullable?: boolean; description?: string } = {}) {
  let inner = dataSchema(data);
  if (o.paginated) inner = s.array(inner as ApiView | Schema);
  if (o.nullable) inner = s.nullable(inner);
  const schema: SchemaObject = {
    type: 'object',
    required: ['success', 'data', ...(o.paginated ? ['meta'] : [])],
    properties: { success: { type: 'boolean', enum: [true] }, data: inner, ...(o.paginated ? { meta: PaginationMeta.ref } : {}) },
  };
  return ApiResponse({ status: o.status ?? 200, description: o.description ?? (o.paginated ? 'A page of results' : 'Success'), schema });
}

/** `{success: true, message}`: deletes and revocations. */
export function ApiMessage(o: { status?: number; description?: string } = {}) {
  return ApiResponse({
    status: o.status ?? 200,
    description: o.description ?? 'Done',
    schema: { type: 'object', required: ['success', 'message'], properties: { success: { type: 'boolean', enum: [true] }, message: s.string() } },
  });
}

const ERROR_TEXT: Record<number, string> = {
  400: 'Malformed JSON, a body that is not a JSON object, a JSON body nested more than 32 levels or with an object of more than 1,000 keys, or a malformed percent-encoding in the path',
  401: 'Missing, invalid, expired or revoked token (message `Unauthorized.`)',
  403: 'Missing permission or ability, or a store that is not yours',
  404: 'Unknown route or record (a non-numeric id is a 404 too)',
  409: 'Conflict with the current state',
  413: 'Body larger than BODY_LIMIT',
  415: 'A body that is not application/json',
  422: 'Validation failed: `errors` maps each field (dotted for nested ones) to messages; at most 100 fields are reported',
  429: 'Rate limit exceeded; see Retry-After',
  503: 'The database is unavailable or did not answer within its configured bounds (code `service_unavailable`), or the rows the request writes stayed locked by others through its retries (code `contention`); nothing was changed: retry after Retry-After seconds',
};

/** Error statuses specific to an operation (the common ones are added to the document for it). */
export function ApiErrors(...statuses: (number | [number, string])[]) {
  return applyDecorators(
    ...statuses.map((st) => {
      const [status, description] = Array.isArray(st) ? st : [st, ERROR_TEXT[st] ?? 'Error'];
      return ApiResponse({ status, description, schema: ErrorEnvelope.ref as SchemaObject });
    }),
  );
}

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * Completes the generated document: the named views as components, the statuses every operation
 * of its kind can answer, the error envelope on every error response, and operationIds for
 * people (operation-names.ts: what generated clients call each operation).
 */
export function finishDocument(document: OpenAPIObject): OpenAPIObject {
  nameOperations(document);
  document.components ??= {};
  document.components.schemas = { ...(document.components.schemas ?? {}), ...Object.fromEntries([...VIEWS.values()].map((v) => [v.name, v.schema])) };
  // Every body refuses unknown fields (422) and takes its aliases: say so where typed clients read it.
  documentBodyNames(document, requestBodySchemaNames(document));
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      if (!op) continue;
      const params = (op.parameters ?? []) as { in?: string }[];
      const add: number[] = [503]; // any operation can meet a database outage (README "Operations")
      if (op.requestBody) add.push(400, 413, 415, 422);
      if (params.some((p) => p.in === 'query')) add.push(422);
      if (params.some((p) => p.in === 'path')) add.push(400, 404);
      if ((op as unknown as Record<string, unknown>)[UNKNOWN_QUERY_EXTENSION]) add.push(422);
      for (const status of add) op.responses[String(status)] ??= { description: ERROR_TEXT[status] };
      if ((op as unknown as Record<string, unknown>)[UNKNOWN_QUERY_EXTENSION])
        (op.responses['422'] as { description: string }).description += ` ${UNKNOWN_QUERY_DOC}`;
      for (const [status, response] of Object.entries(op.responses)) {
        const r = response as { description?: string; content?: Record<string, { schema?: unknown }> };
        if (Number(status) >= 400 && !r.content) r.content = { 'application/json': { schema: ErrorEnvelope.ref } };
      }
    }
  }
  return document;
}
