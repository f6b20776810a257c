/** A page of results as repositories return it; the HTTP envelope turns it into data + meta. */
export class Page<T> {
  constructor(
    readonly items: T[],
    readonly total: number,
    readonly page: number,
    readonly perPage: number,
  ) {}

  get lastPage(): number {
    return Math.max(1, Math.ceil(this.total / this.perPage));
  }

  map<U>(fn: (item: T) => U): Page<U> {
    return new Page(this.items.map(fn), this.total, this.page, this.perPage);
  }
}

export interface PageRequest {
  page: number;
  perPage: number;
}

export function pageOffset(request: PageRequest): number {
  return (request.page - 1) * request.perPage;
}

/** per_page above the maximum is clamped (decisions.md); meta.per_page shows the value used. */
export function clampPerPage(requested: number | undefined, fallback: number, max: number): number {
  if (requested === undefined) return fallback;
  return Math.min(requested, max);
}
