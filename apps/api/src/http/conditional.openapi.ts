import { applyDecorators } from '@nestjs/common';
import { ApiHeader } from '@nestjs/swagger';
import type { OpenAPIObject, OperationObject, ParameterObject, ResponseObject } from '@nestjs/swagger/dist/interfaces/open-api-spec.interface';
import { isConditionalPath } from './conditional';
import { ApiErrors } from './openapi';

const ETAG_HEADER = {
  description:
    'Weak entity tag of this answer: W/"<hash>", or W/"v<version>-<hash>" for a record with a version. Send it back as If-None-Match ' +
    '(GET: 304 while unchanged) or as If-Match (PUT of the record: 412 when it has changed since)',
  schema: { type: 'string' },
};

/**
 * A versioned record's PUT: the optional If-Match header and the answers it adds (412 on a stale
 * version, 400 on a malformed header). The body's `version` field does the same (see the DTO).
 */
export function ApiIfMatch(resource: string) {
  return applyDecorators(
    ApiHeader({
      name: 'If-Match',
      required: false,
      description:
        `Only write if the ${resource} is still at this version: the ETag its GET (or last PUT) sent, a bare "<version>", a list of them, or *. ` +
        'Without If-Match and without a body version the last write wins.',
    }),
    ApiErrors(
      [412, `The ${resource} has changed since the version given (If-Match or body version): code precondition_failed, current_version; nothing was written`],
      [
        400,
        'Malformed JSON, a body that is not a JSON object or nested too deep, a malformed path, or an If-Match that is not * or a list of entity tags (code invalid_if_match)',
      ],
    ),
  );
}

/**
 * Conditional GETs in the document, from the same rule the server applies (isConditionalPath):
 * the If-None-Match parameter, the 304 answer and the ETag and Cache-Control headers of the
 * success; a versioned PUT's success carries its new ETag.
 */
export function documentConditionalRequests(document: OpenAPIObject): OpenAPIObject {
  for (const [path, item] of Object.entries(document.paths)) {
    if (!isConditionalPath(path)) continue;
    const get = item.get as OperationObject | undefined;
    if (get) {
      const params = (get.parameters ??= []) as ParameterObject[];
      if (!params.some((p) => p.in === 'header' && p.name === 'If-None-Match')) {
        params.push({
          name: 'If-None-Match',
          in: 'header',
          required: false,
          description: 'The ETag of an answer you kept: 304 with no body while the answer is unchanged',
          schema: { type: 'string' },
        });
      }
      get.responses['304'] ??= { description: 'Not modified: If-None-Match holds the current ETag; no body (keep using your copy)' };
      for (const [status, response] of Object.entries(get.responses)) {
        if (!status.startsWith('2')) continue;
        const r = response as ResponseObject;
        r.headers = {
          ...(r.headers ?? {}),
          ETag: ETAG_HEADER,
          'Cache-Control': {
            description: '`private, no-cache`: a client may keep the answer but must revalidate it (If-None-Match)',
            schema: { type: 'string' },
          },
        };
      }
    }
    // PATCH, where it exists, is the same partial update as PUT (partial-update.ts).
    for (const write of [item.put, item.patch] as (OperationObject | undefined)[]) {
      if (!write?.responses['412']) continue;
      const ok = write.responses['200'] as ResponseObject | undefined;
      if (ok) ok.headers = { ...(ok.headers ?? {}), ETag: ETAG_HEADER };
    }
  }
  return document;
}
