import { applyDecorators, CallHandler, ExecutionContext, Injectable, NestInterceptor, UseInterceptors } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { map, Observable } from 'rxjs';
import { SerializedJson } from './envelope';

/**
 * A route that starts a job answers where to follow it: `Location: <this path>/<job id>` (its
 * status URL) and `id` beside `job_id` in the data, the names the rest of the API uses. The
 * status code stays the route's own (the contract shows 200 for `POST /prices/bulk`: part 4,
 * "200 unless stated"). Put it BELOW `@IdempotentCreate` so it runs outside the idempotency
 * interceptor: a replayed answer (already serialised) gets its Location too.
 */
@Injectable()
export class JobLocationInterceptor implements NestInterceptor {
  intercept(context: ExecutionContext, next: CallHandler): Observable<unknown> {
    const http = context.switchToHttp();
    const req = http.getRequest<Request>();
    const res = http.getResponse<Response>();
    return next.handle().pipe(
      map((result: unknown) => {
        const id = jobIdOf(result);
        if (id !== undefined && !res.headersSent) res.setHeader('Location', `${req.originalUrl.split('?')[0].replace(/\/+$/, '')}/${id}`);
        return result;
      }),
    );
  }
}

function jobIdOf(result: unknown): number | string | undefined {
  let data: unknown = result;
  if (result instanceof SerializedJson) {
    try {
      data = (JSON.parse(result.bytes.toString('utf8')) as { data?: unknown }).data;
    } catch {
      return undefined;
    }
  }
  const id = (data as { job_id?: unknown } | null)?.job_id;
  return typeof id === 'number' || typeof id === 'string' ? id : undefined;
}

/** `{...job, id: job_id}`: the job's `id`, as every other resource names it. */
export function withJobId<T extends { job_id: number }>(job: T): T & { id: number } {
  return { id: job.job_id, ...job };
}

/** The job-starting route's Location header (and its documentation). */
export const JobLocation = (status = 200) =>
  applyDecorators(
    UseInterceptors(JobLocationInterceptor),
    ApiResponse({
      status,
      description: 'The job, queued',
      headers: { Location: { description: "The job's status URL (GET it to follow the progress)", schema: { type: 'string' } } },
    }),
  );
