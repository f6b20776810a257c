import { ModuleRef } from '@nestjs/core';
import { SessionRefundTotals, SessionSalesTotals } from './session.ports';
import { SessionService } from './session.service';

/** The ports sessions own are bound by the contexts above it; a missing binding stops the boot, naming the module to import. */
describe('SessionService ports', () => {
  const service = (bound: unknown[]) => {
    const moduleRef = {
      get: (token: unknown) => {
        if (!bound.includes(token)) throw new Error('not found');
        return {};
      },
    } as unknown as ModuleRef;
    const none = {} as never;
    return new SessionService(none, none, none, none, none, moduleRef, none);
  };

  it('refuses to start without the refund totals that the returns context binds', () => {
    expect(() => service([SessionSalesTotals]).onModuleInit()).toThrow(/SessionRefundTotals.*ReturnsModule/);
    expect(() => service([SessionRefundTotals]).onModuleInit()).toThrow(/SessionSalesTotals.*SalesModule/);
    expect(() => service([SessionSalesTotals, SessionRefundTotals]).onModuleInit()).not.toThrow();
  });
});
