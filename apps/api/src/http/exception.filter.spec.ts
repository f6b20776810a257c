import { BadRequestException, NotFoundException, UnauthorizedException } from '@nestjs/common';
import { ConflictError, ForbiddenError, NotFoundError, ValidationFailedError } from '@pos/kernel';
import { toErrorResponse } from './exception.filter';

describe('toErrorResponse', () => {
  it('never leaks an unknown error', () => {
    const r = toErrorResponse(new Error('ER_ACCESS_DENIED for user root@10.0.0.1 at /srv/app/x.ts:12'));
    expect(r.status).toBe(500);
    expect(r.body).toEqual({ success: false, message: 'Server Error.' });
  });

  it('maps domain errors by kind', () => {
    expect(toErrorResponse(new NotFoundError('Store')).status).toBe(404);
    expect(toErrorResponse(new ForbiddenError()).status).toBe(403);
    const conflict = toErrorResponse(new ConflictError('in_flight', 'Still running', 2));
    expect(conflict.status).toBe(409);
    expect(conflict.headers['Retry-After']).toBe('2');
    const invalid = toErrorResponse(ValidationFailedError.field('items.0.qty', 'The items.0.qty field is required.'));
    expect(invalid).toMatchObject({
      status: 422,
      body: { success: false, message: 'The given data was invalid.', errors: { 'items.0.qty': ['The items.0.qty field is required.'] } },
    });
  });

  it('uses the contract messages for Nest exceptions', () => {
    expect(toErrorResponse(new UnauthorizedException('whatever')).body.message).toBe('Unauthorized.');
    expect(toErrorResponse(new NotFoundException('Cannot GET /x')).body.message).toBe('Not found.');
    expect(toErrorResponse(new BadRequestException('The request body must be a JSON object.')).body.message).toBe('The request body must be a JSON object.');
  });
});
