import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional } from '@nestjs/swagger';
import { REPORT_ROWS } from '@pos/integration';
import { IsOptional, IsString, Matches } from 'class-validator';
import { OptionalInt } from '../http/validators';

const ReportDate = (description: string) =>
  applyDecorators(
    ApiPropertyOptional({ type: String, format: 'date', pattern: '^\\d{4}-\\d{2}-\\d{2}$', description }),
    IsOptional(),
    IsString(),
    Matches(/^\d{4}-\d{2}-\d{2}$/, { message: '$property must be a valid date (YYYY-MM-DD)' }),
  );

/** The filters every report takes (contract 4.10). The use case checks the calendar, the range and the store access. */
export class ReportQuery {
  @ReportDate('First day (YYYY-MM-DD, inclusive). Default: date_to minus 29 days (30 days in all).')
  date_from?: string;

  @ReportDate('Last day (YYYY-MM-DD, inclusive). Default: today in the store time zone when one store is in scope, else UTC. At most 366 days after date_from.')
  date_to?: string;

  @OptionalInt({ description: 'Only this store (one of the caller’s: another is 403, an unknown one 422)' })
  store_id?: number;

  @OptionalInt({ description: 'Only this warehouse (it must serve store_id when both are given); sale-level figures count sales whose every line left it' })
  warehouse_id?: number;

  @OptionalInt({ min: 1, max: 1_000_000, description: 'Page of `data.rows` (default 1); summary and charts are always over the whole period' })
  @ApiPropertyOptional({ default: 1 })
  page?: number;

  @OptionalInt({
    min: 1,
    max: REPORT_ROWS.max,
    description: `Rows per page of \`data.rows\` (default ${REPORT_ROWS.default}, at most ${REPORT_ROWS.max}: a larger value is 422, not clamped); \`meta.rows\` says the page and the total`,
  })
  @ApiPropertyOptional({ default: REPORT_ROWS.default })
  per_page?: number;
}
