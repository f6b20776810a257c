import type { AddressInfo } from 'node:net';
import type { INestApplicationContext } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createPosClient, PosApiError } from '@pos/client';
import { WorkerModule } from '../../apps/worker/src/worker.module';
import { runPartnerFlow } from '../../clients/typescript/examples/partner-flow';
import { runTerminalFlow, type TerminalFlowResult } from '../../clients/typescript/examples/terminal-flow';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * Issue 27 item 10: the typed client's two examples run, as a user would run them, against the
 * real API listening on loopback: a till (login, session, scan, checkout, receipt) and a partner
 * (application token, a feed page, a webhook verified with the client's helper). With Redis
 * (TEST_DB=mysql) webhook deliveries run in the worker, as in production, so one is started.
 */
describe('TypeScript client: the examples against a running API', () => {
  let t: TestApp;
  let worker: INestApplicationContext | undefined;
  let baseUrl: string;
  let terminal: TerminalFlowResult;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true', WEBHOOK_RELAY_INTERVAL_MS: '100' });
    if (t.isMysql) {
      worker = await NestFactory.createApplicationContext(WorkerModule.register(t.config), { logger: false });
      await worker.init();
    }
    await t.app.listen(0, '127.0.0.1');
    baseUrl = `http://127.0.0.1:${(t.http.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await worker?.close();
    await t?.close();
  });

  it('terminal flow: logs in, opens a session, scans, checks out and fetches the receipt', async () => {
    terminal = await runTerminalFlow(baseUrl);
    expect(terminal.cashier).toEqual(expect.any(String));
    expect(terminal.sessionId).toBeGreaterThan(0);
    expect(terminal.sale).toMatchObject({ status: 'completed', total_amount: terminal.total, session_id: terminal.sessionId });
    expect(terminal.sale.items.map((line) => line.item_id)).toEqual([terminal.product.id]);
    expect(terminal.receipt.receipt_number).toBe(terminal.sale.receipt_number);
    expect(terminal.receipt.lines).toHaveLength(1);

    // the same till again: the open session is reused, not opened twice (409)
    const again = await runTerminalFlow(baseUrl, { barcode: terminal.barcode });
    expect(again.sessionId).toBe(terminal.sessionId);
    expect(again.sale.id).not.toBe(terminal.sale.id);
  });

  it('partner flow: issues a token, reads a feed page and verifies a signed webhook', async () => {
    const partner = await runPartnerFlow(baseUrl, { saleId: terminal.sale.id });
    expect(partner.tokenAbilities).toEqual(['integration:read']);
    expect(partner.feed.total).toBeGreaterThanOrEqual(2);
    expect(partner.feed.rows).toBe(Math.min(20, partner.feed.total));
    expect(partner.sale).toMatchObject({ id: terminal.sale.id, receipt_number: terminal.sale.receipt_number });
    expect(partner.webhook.verified.event).toMatchObject({ type: 'ping', data: { endpoint_id: partner.webhook.endpointId } });
    expect(partner.webhook.verified.deliveryId).toMatch(/^[0-9a-f-]{36}$/);
    expect(partner.webhook.forgedRejected).toBe(true);
  });

  it('throws a PosApiError carrying the status, message and field errors', async () => {
    const pos = createPosClient({ baseUrl });
    const failure = await pos.login({ email: 'cashier@example.com', password: 'wrong' }).catch((e: unknown) => e);
    expect(failure).toBeInstanceOf(PosApiError);
    expect(failure).toMatchObject({ status: 422, errors: { email: [expect.any(String)] }, requestId: expect.any(String) });
    expect(pos.token).toBeUndefined();

    const anonymous = await pos.call('listSales').catch((e: unknown) => e);
    expect(anonymous).toMatchObject({ status: 401, message: 'Unauthorized.' });
  });
});
