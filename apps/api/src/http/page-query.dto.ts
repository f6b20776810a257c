import { PageRequest, clampPerPage } from '@pos/kernel';
import { OptionalInt } from './validators';

/** page / per_page of every paginated list. per_page < 1 or not an integer: 422; above max: clamped. */
export class PageQueryDto {
  @OptionalInt({ min: 1, max: 1_000_000, description: 'Page number (default 1)' })
  page?: number;

  @OptionalInt({ min: 1, description: 'Rows per page; values above the endpoint maximum are clamped' })
  per_page?: number;
}

export function pageRequest(query: PageQueryDto, limits: { default: number; max: number }): PageRequest {
  return { page: query.page ?? 1, perPage: clampPerPage(query.per_page, limits.default, limits.max) };
}
