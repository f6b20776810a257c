import type { INestApplication } from '@nestjs/common';
import { DocumentBuilder, SwaggerModule } from '@nestjs/swagger';
import type { OpenAPIObject } from '@nestjs/swagger';
import { documentConditionalRequests } from './conditional.openapi';
import { documentIdempotency } from './idempotency.openapi';
import { finishDocument } from './openapi';

/**
 * The OpenAPI document of the API, built from the controllers of a created application (it
 * need not listen, nor be initialised). The service serves it at /api/docs-json; the committed
 * copy in clients/openapi.json, from which the TypeScript client is generated, comes from the
 * same function (`npm run openapi:generate`).
 */
export function buildOpenApiDocument(app: INestApplication): OpenAPIObject {
  const document = SwaggerModule.createDocument(
    app,
    new DocumentBuilder()
      .setTitle('Point-of-Sale Service API')
      .setDescription(
        [
          'Cashier terminals, partner integrations and back office. Every response uses the envelope ' +
            '`{success, data, meta?, message?, errors?}`; each operation documents its `data` and its error statuses ' +
            '(errors use the ErrorEnvelope schema). Each operation lists its permission in `x-permission` and in its 403 description.',
          'Rate-limit tiers: login 5/min per IP and email (and 20/min per IP), standard 60/min, POS lookups 120/min, bulk 10/min.',
          'Numbers: a numeric string ("12.50") is accepted wherever a number is (query strings are always strings). ' +
            "Money carries its currency's decimal places (USD 2, JPY 0, KWD 3): an amount with more is 422 on the field. " +
            'The schemas allow the most any currency has (multipleOf 0.0001); percents have at most 2, exchange rates at most 8.',
          'null: an optional field sent as null is the same as leaving it out, except fields marked nullable, where null clears the value. ' +
            'A required field sent as null is 422 "required".',
          'Text: control characters (tab and line breaks only in multi-line text), bidirectional override characters and unpaired ' +
            'UTF-16 surrogates are refused (422). Bodies are application/json only (415 otherwise), nested at most 32 levels (400).',
          'Operation names (operationId) are stable and meant for generated clients: the TypeScript client in clients/typescript ' +
            'calls each operation by its path and method, typed from this document. The /integrations/ aliases are deprecated.',
        ].join('\n\n'),
      )
      .setVersion('1.0.0')
      .addBearerAuth({
        type: 'http',
        scheme: 'bearer',
        bearerFormat: 'opaque',
        description: 'Opaque token from POST /api/v1/auth/login, sent as `Authorization: Bearer <token>` only',
      })
      .build(),
  );
  return documentConditionalRequests(documentIdempotency(finishDocument(document)));
}
