import { DomainError } from './errors';

/**
 * Optimistic concurrency for records a back office edits (items, customers, pricing rules): each
 * row carries `version` (1 when created, +1 on every write of the row, whatever path writes it).
 * A write may name the versions it was based on (HTTP `If-Match`, or the body's `version`); it
 * then only happens if the row is still at one of them, checked by the write itself (see each
 * repository's `claimVersion`), so two writers based on one version cannot both win.
 */
export type ExpectedVersions = readonly number[] | undefined;

/** 412: the record changed since the version the caller based its write on. Nothing was written. */
export class PreconditionFailedError extends DomainError {
  readonly kind = 'precondition_failed' as const;
  constructor(resource: string, current?: number) {
    super(
      'precondition_failed',
      `The ${resource} was changed by someone else since you read it${current === undefined ? '' : ` (it is now at version ${current})`}: ` +
        'read it again and re-apply your change. Nothing was written.',
      current === undefined ? undefined : { current_version: current },
    );
  }
}

/** Whether a record at `current` may be written by a caller that expects `expected` (undefined: anything goes). */
export function versionMatches(current: number, expected: ExpectedVersions): boolean {
  return expected === undefined || expected.includes(current);
}

/**
 * Throws 412 unless a record found at version `current` (read under its row lock) may be written
 * by a caller expecting `expected`; a missing record (null) is left to the caller's 404.
 */
export function assertVersion(current: number | null, expected: ExpectedVersions, resource: string): void {
  if (current !== null && !versionMatches(current, expected)) throw new PreconditionFailedError(resource, current);
}
