import { Injectable, NotFoundException, PipeTransform } from '@nestjs/common';

/**
 * Path ids are strings in the contract; anything but a positive integer cannot name a record,
 * so it is a 404 (never a 500 or a query with a bad value).
 */
@Injectable()
export class IdPipe implements PipeTransform<string, number> {
  transform(value: string): number {
    if (!/^[1-9]\d{0,15}$/.test(value) || Number(value) > 2_147_483_647) throw new NotFoundException();
    return Number(value);
  }
}
