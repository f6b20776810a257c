import { applyDecorators, Type } from '@nestjs/common';
import { ApiExtraModels, getSchemaPath } from '@nestjs/swagger';
import type { SchemaObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { ApiEnvelope as Envelope, ApiErrors as Errors, ApiMessage as Message } from '../http/openapi';

/**
 * The shared OpenAPI decorators (apps/api/src/http/openapi.ts) for the webhook routes, whose
 * `data` shapes are documented as classes (webhooks.dto.ts), with the webhook-specific wording of
 * each error status.
 */
export const ApiEnvelope = (model: Type<unknown>, opts: { status?: number; paginated?: boolean; description?: string } = {}) =>
  applyDecorators(ApiExtraModels(model), Envelope({ $ref: getSchemaPath(model) } as SchemaObject, opts));

export const ApiMessage = (description: string) => Message({ description });

const ERROR_TEXT: Record<number, string> = {
  404: 'No such webhook endpoint or delivery (a non-numeric endpoint id or a malformed delivery id is a 404 too)',
  409: 'The endpoint is inactive or disabled, or an attempt of the delivery is in progress',
  422: 'Validation failed (`errors` names each field), including a url refused by the SSRF guard',
};

export const ApiErrors = (...statuses: number[]) => Errors(...statuses.map((s): number | [number, string] => (ERROR_TEXT[s] ? [s, ERROR_TEXT[s]] : s)));
