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

  it('answers 503 with Retry-After when the database is down or past its time bounds, and 500 for other errors', () => {
    const refused = Object.assign(new Error('connect ECONNREFUSED 127.0.0.1:3306'), { code: 'ECONNREFUSED', errno: -111 });
    const wrapped = Object.assign(new Error('Query inactivity timeout'), { driverError: { code: 'PROTOCOL_SEQUENCE_TIMEOUT' } });
    const tooMany = Object.assign(new Error('Too many connections'), { code: 'ER_CON_COUNT_ERROR', errno: 1040 });
    for (const e of [refused, wrapped, tooMany, new Error('Pool is closed.')]) {
      const r = toErrorResponse(e);
      expect(r.status).toBe(503);
      expect(r.headers['Retry-After']).toMatch(/^[1-9]\d*$/);
      expect(r.body).toMatchObject({ success: false, code: 'service_unavailable' });
      expect(JSON.stringify(r.body)).not.toContain('3306');
    }
    expect(toErrorResponse(Object.assign(new Error('syntax'), { code: 'ER_PARSE_ERROR', errno: 1064 })).status).toBe(500);
  });

  it('answers a deadlock or lock wait that outlived its retries with 503 contention and Retry-After: 1, not 500', () => {
    const deadlock = Object.assign(new Error('Deadlock found when trying to get lock; try restarting transaction'), {
      driverError: { code: 'ER_LOCK_DEADLOCK', errno: 1213 },
      query: 'INSERT INTO item_name_words (item_id, position, tail) VALUES (?, ?, ?)',
    });
    const lockWait = Object.assign(new Error('Lock wait timeout exceeded'), { code: 'ER_LOCK_WAIT_TIMEOUT', errno: 1205 });
    const busy = Object.assign(new Error('database is locked'), { code: 'SQLITE_BUSY' });
    for (const e of [deadlock, lockWait, busy]) {
      const r = toErrorResponse(e);
      expect(r.status).toBe(503);
      expect(r.headers['Retry-After']).toBe('1');
      expect(r.body).toEqual({
        success: false,
        message: 'The records this request writes are busy; nothing was changed. Try again shortly.',
        code: 'contention',
      });
    }
  });
});
