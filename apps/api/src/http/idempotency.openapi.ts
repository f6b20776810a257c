import type { OpenAPIObject } from '@nestjs/swagger';
import type { OperationObject, ParameterObject, ReferenceObject, ResponseObject, SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import {
  IDEMPOTENCY_KEY_HEADER,
  IDEMPOTENCY_KEY_MAX_LENGTH,
  IDEMPOTENCY_RETENTION_DAYS,
  IDEMPOTENCY_RETENTION_HEADER,
  IDEMPOTENCY_RETENTION_SECONDS,
  IDEMPOTENT_REPLAYED_HEADER,
} from '@pos/platform';
import { ErrorEnvelope } from './openapi';

const RULES =
  'The same key with the same request (method, URL and body, by the same user) answers the original status and body again with ' +
  `\`${IDEMPOTENT_REPLAYED_HEADER}: true\` and changes nothing; the same key with another request (another body, route or user): 422 ` +
  '`errors.idempotency_key`; while the first request with it is still running: 409 (code `idempotency_in_flight`) with Retry-After. ' +
  'However concurrent duplicates race, one record is created (a unique index decides). A request that fails keeps nothing: its retry runs afresh. ' +
  `Keys are unique across the service and kept at least ${IDEMPOTENCY_RETENTION_DAYS} days (\`${IDEMPOTENCY_RETENTION_HEADER}\`). ` +
  'A secret shown once in the answer (a webhook signing secret, an API token) is stored sealed with APP_KEY and shown again only on a replay.';

const PARAMETERS: Record<string, ParameterObject> = {
  IdempotencyKey: {
    name: IDEMPOTENCY_KEY_HEADER,
    in: 'header',
    required: false,
    description: `A key of your choice (1-${IDEMPOTENCY_KEY_MAX_LENGTH} printable ASCII characters; a UUID is best) that makes this create safe to retry. ${RULES}`,
    schema: { type: 'string', minLength: 1, maxLength: IDEMPOTENCY_KEY_MAX_LENGTH, pattern: '^[\\x20-\\x7E]+$' },
  },
  IdempotencyKeyInBody: {
    name: IDEMPOTENCY_KEY_HEADER,
    in: 'header',
    required: false,
    description:
      "Stands for the body's `idempotency_key` (1-128 printable ASCII characters here, the body field's limit): give either, or both " +
      `only if equal (else 422 \`errors.idempotency_key\`). ${RULES}`,
    schema: { type: 'string', minLength: 1, maxLength: 128, pattern: '^[\\x20-\\x7E]+$' },
  },
};

const HEADERS = {
  IdempotentReplayed: {
    description: 'Present (`true`) when this answer is the stored answer of an earlier request with the same Idempotency-Key',
    schema: { type: 'string', enum: ['true'] },
  },
  IdempotencyKeyRetention: {
    description: `On every answer to a request with an idempotency key: seconds from its first use the key and its answer are kept at least (${IDEMPOTENCY_RETENTION_SECONDS}, ${IDEMPOTENCY_RETENTION_DAYS} days)`,
    schema: { type: 'integer', example: IDEMPOTENCY_RETENTION_SECONDS },
  },
};

const CONFLICT = 'A request with the same Idempotency-Key is still running (code `idempotency_in_flight`; retry after Retry-After)';
const INVALID = '`errors.idempotency_key`: the Idempotency-Key is malformed, was used for another request, or differs from the body key';
const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/**
 * The `Idempotency-Key` header documented once: operations that declare it (@IdempotentCreate)
 * refer to `components.parameters`, their success answers list the two response headers, and
 * their 409 and 422 say what the key adds. Run on the finished document (bootstrap.ts).
 */
export function documentIdempotency(document: OpenAPIObject): OpenAPIObject {
  document.components ??= {};
  document.components.parameters = { ...(document.components.parameters ?? {}), ...PARAMETERS };
  document.components.headers = { ...(document.components.headers ?? {}), ...HEADERS };
  for (const item of Object.values(document.paths)) {
    for (const method of METHODS) {
      const op = item[method] as OperationObject | undefined;
      const params = (op?.parameters ?? []) as (ParameterObject | ReferenceObject)[];
      const at = params.findIndex((p) => 'in' in p && p.in === 'header' && p.name.toLowerCase() === IDEMPOTENCY_KEY_HEADER.toLowerCase());
      if (!op || at < 0) continue;
      const inBody = ((params[at] as ParameterObject).schema as { maxLength?: number } | undefined)?.maxLength !== IDEMPOTENCY_KEY_MAX_LENGTH;
      params[at] = { $ref: `#/components/parameters/${inBody ? 'IdempotencyKeyInBody' : 'IdempotencyKey'}` };
      for (const [status, response] of Object.entries(op.responses)) {
        const r = response as ResponseObject;
        if (status.startsWith('2'))
          r.headers = {
            ...(r.headers ?? {}),
            [IDEMPOTENT_REPLAYED_HEADER]: { $ref: '#/components/headers/IdempotentReplayed' },
            [IDEMPOTENCY_RETENTION_HEADER]: { $ref: '#/components/headers/IdempotencyKeyRetention' },
          };
      }
      addCase(op, '409', CONFLICT);
      addCase(op, '422', INVALID);
    }
  }
  return document;
}

function addCase(op: OperationObject, status: string, text: string): void {
  const existing = op.responses[status] as ResponseObject | undefined;
  if (!existing) {
    op.responses[status] = { description: text, content: { 'application/json': { schema: ErrorEnvelope.ref as SchemaObject } } };
    return;
  }
  if (!existing.description?.includes('Idempotency-Key')) existing.description = `${existing.description ?? ''}. Also: ${text}`.replace(/^\. /, '');
}
