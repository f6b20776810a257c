import { Injectable } from '@nestjs/common';
import { SessionRefundTotals } from '@pos/sessions';
import { ReturnRepository } from '../application/return.ports';

/** Binds the sessions context's port: cash paid back by returns processed in a session. */
@Injectable()
export class ReturnSessionRefunds extends SessionRefundTotals {
  constructor(private readonly returns: ReturnRepository) {
    super();
  }

  cashRefunds(sessionId: number): Promise<number> {
    return this.returns.sessionCashRefunds(sessionId);
  }
}
