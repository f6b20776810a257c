import { ApiPropertyOptional } from '@nestjs/swagger';
import { Transform } from 'class-transformer';
import { ArrayMaxSize, ArrayMinSize, IsArray, IsIn, IsOptional, IsString, Matches, MaxLength } from 'class-validator';
import { eventLogKinds } from '@pos/webhooks';
import { OptionalDateTime } from '../http/date-time.validator';
import { OptionalInt } from '../http/validators';

export const EVENTS_PAGE = { default: 100, max: 500 };
const KINDS = eventLogKinds();

/** `types=a,b` (or `types=a&types=b`) -> ['a', 'b'], trimmed; anything else stays for the validators. */
const commaList = Transform(({ value }: { value: unknown }) => {
  const parts = Array.isArray(value) ? value : [value];
  if (!parts.every((p) => typeof p === 'string')) return value;
  return (parts as string[]).flatMap((p) => p.split(',')).map((p) => p.trim());
});

export class EventLogQueryDto {
  @ApiPropertyOptional({
    type: String,
    maxLength: 512,
    description: 'Opaque position from `meta.next_cursor`: events after it. Not with `since`.',
  })
  @IsOptional()
  @IsString()
  @MaxLength(512)
  @Matches(/^[A-Za-z0-9_-]+$/, { message: 'after must be a cursor from meta.next_cursor' })
  after?: string;

  @OptionalDateTime('Events created at or after this instant. Not with `after`.')
  since?: Date;

  @ApiPropertyOptional({
    type: String,
    description: `Comma-separated event kinds (default: every kind the application may read): ${KINDS.join(', ')}`,
    example: 'sale.completed,sale.voided',
  })
  @IsOptional()
  @commaList
  @IsArray()
  @ArrayMinSize(1)
  @ArrayMaxSize(KINDS.length * 2)
  @IsIn(KINDS, { each: true, message: `each value in types must be one of: ${KINDS.join(', ')}` })
  types?: string[];

  @OptionalInt({ min: 1, description: `Events per page (default ${EVENTS_PAGE.default}; above ${EVENTS_PAGE.max} is clamped)` })
  per_page?: number;
}
