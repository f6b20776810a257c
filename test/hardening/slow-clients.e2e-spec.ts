import { AddressInfo, connect, Socket } from 'node:net';
import type { Server } from 'node:http';
import { startTestApp, TestApp } from '../support/test-app';

/** What a raw client saw: the first status line the server sent (if any), and whether it closed the connection. */
interface Outcome {
  closedByServer: boolean;
  status?: string;
  /** How much of what the client meant to send it had sent when the connection ended. */
  sent: number;
  total: number;
}

/**
 * Sends `head` at once, then `trickle` one byte every `everyMs`, and reports what happened. The
 * client gives up after `deadlineMs` (far beyond the server's bounds, far short of the trickle's
 * length), so a server that waits forever fails the test instead of hanging it.
 */
function trickle(port: number, head: string, slow: string, everyMs: number, deadlineMs: number): Promise<Outcome> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    const total = head.length + slow.length;
    let sent = 0;
    let status: string | undefined;
    let timer: NodeJS.Timeout | undefined;
    const done = (closedByServer: boolean) => {
      clearInterval(timer);
      clearTimeout(deadline);
      socket.destroy();
      resolve({ closedByServer, status, sent, total });
    };
    const deadline = setTimeout(() => done(false), deadlineMs);
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => (status ??= chunk.toString('latin1').split('\r\n')[0]));
    socket.on('close', () => done(true));
    socket.on('connect', () => {
      socket.write(head);
      sent = head.length;
      timer = setInterval(() => {
        if (sent - head.length >= slow.length || socket.destroyed) return;
        socket.write(slow[sent - head.length]);
        sent++;
      }, everyMs);
    });
  });
}

/** Opens a connection and resolves once it is connected (it sends nothing). */
function openSilent(port: number): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1');
    socket.once('connect', () => resolve(socket));
    socket.once('error', reject);
  });
}

function connectionsOf(server: Server): Promise<number> {
  return new Promise((resolve, reject) => server.getConnections((error, count) => (error ? reject(error) : resolve(count))));
}

/**
 * Issue 25 item 4: slow clients are bounded. Small limits here (1 s for headers, 2 s for a whole
 * request), so each case ends within seconds; what is asserted is the outcome (the server answered
 * 408 or closed the connection while the client still had most of its request to send), never
 * how many milliseconds it took. Without the limits Node waits 60 s for headers, 300 s for a
 * request, checks only every 30 s, and lets a silent connection stay open forever.
 */
describe('Slow clients (issue 25 item 4)', () => {
  let t: TestApp;
  let port: number;
  const EVERY_MS = 250;
  const DEADLINE_MS = 20_000;

  beforeAll(async () => {
    t = await startTestApp({ HTTP_HEADERS_TIMEOUT_MS: '1000', HTTP_REQUEST_TIMEOUT_MS: '2000', HTTP_KEEP_ALIVE_TIMEOUT_MS: '1000' });
    await t.app.listen(0, '127.0.0.1');
    port = (t.http.address() as AddressInfo).port;
  });
  afterAll(() => t?.close());

  it('closes a connection whose headers arrive a byte at a time, with 408', async () => {
    // 160 header bytes at 4 a second would take 40 s to arrive.
    const headers = `GET /api/v1/health/live HTTP/1.1\r\nHost: pos.test\r\nX-Slow: ${'a'.repeat(100)}\r\n\r\n`;
    const outcome = await trickle(port, 'G', headers.slice(1), EVERY_MS, DEADLINE_MS);
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.status ?? 'HTTP/1.1 408 Request Timeout').toBe('HTTP/1.1 408 Request Timeout');
    expect(outcome.sent).toBeLessThan(outcome.total);
  });

  it('closes a connection whose body arrives a byte at a time, with 408', async () => {
    const body = JSON.stringify({ email: 'cashier@example.com', password: 'x'.repeat(140) });
    const head = `POST /api/v1/auth/login HTTP/1.1\r\nHost: pos.test\r\nContent-Type: application/json\r\nContent-Length: ${body.length}\r\n\r\n`;
    const outcome = await trickle(port, head, body, EVERY_MS, DEADLINE_MS);
    expect(outcome.closedByServer).toBe(true);
    expect(outcome.status ?? 'HTTP/1.1 408 Request Timeout').toBe('HTTP/1.1 408 Request Timeout');
    expect(outcome.sent).toBeLessThan(outcome.total);
  });

  it('answers what Node refuses before the application in the error envelope: 431 for headers over 16 KB, 400 for garbage', async () => {
    const raw = (text: string) =>
      new Promise<string>((resolve) => {
        const socket = connect(port, '127.0.0.1');
        let got = '';
        socket.on('data', (chunk: Buffer) => (got += chunk.toString('latin1')));
        socket.on('error', () => undefined);
        socket.on('close', () => resolve(got));
        socket.on('connect', () => socket.write(text));
      });
    for (const [request, status, message] of [
      [
        `GET /api/v1/health/live HTTP/1.1\r\nHost: pos.test\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
        'HTTP/1.1 431 Request Header Fields Too Large',
        /too large/,
      ],
      ['NOT HTTP AT ALL\r\n\r\n', 'HTTP/1.1 400 Bad Request', /could not be read/],
    ] as const) {
      const answer = await raw(request);
      const [head, body] = answer.split('\r\n\r\n');
      expect(head.split('\r\n')[0]).toBe(status);
      expect(head).toMatch(/content-type: application\/json/i);
      const parsed = JSON.parse(body) as { success: boolean; message: string };
      expect(parsed.success).toBe(false);
      expect(parsed.message).toMatch(message);
    }
  });

  it('closes a connection that never sends anything', async () => {
    const outcome = await trickle(port, '', '', EVERY_MS, DEADLINE_MS);
    expect(outcome).toMatchObject({ closedByServer: true, status: undefined });
  });

  it('still serves a client that sends its request at once', async () => {
    const outcome = await trickle(port, 'GET /api/v1/health/live HTTP/1.1\r\nHost: pos.test\r\nConnection: close\r\n\r\n', '', EVERY_MS, DEADLINE_MS);
    expect(outcome.status).toBe('HTTP/1.1 200 OK');
  });

  describe('with HTTP_MAX_CONNECTIONS=3', () => {
    let capped: TestApp;
    let cappedPort: number;
    const held: Socket[] = [];

    beforeAll(async () => {
      // Long header time here, so the three held connections stay open while the fourth knocks.
      capped = await startTestApp({ HTTP_MAX_CONNECTIONS: '3', HTTP_HEADERS_TIMEOUT_MS: '30000', HTTP_REQUEST_TIMEOUT_MS: '30000' });
      await capped.app.listen(0, '127.0.0.1');
      cappedPort = (capped.http.address() as AddressInfo).port;
    });
    afterAll(async () => {
      for (const s of held) s.destroy();
      await capped?.close();
    });

    it('refuses connections beyond the cap at once and keeps serving those it holds', async () => {
      for (let i = 0; i < 3; i++) held.push(await openSilent(cappedPort));
      for (let i = 0; i < 100 && (await connectionsOf(capped.http)) < 3; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(await connectionsOf(capped.http)).toBe(3);

      const beyond = await trickle(cappedPort, 'GET /api/v1/health/live HTTP/1.1\r\nHost: pos.test\r\n\r\n', '', EVERY_MS, DEADLINE_MS);
      expect(beyond).toMatchObject({ closedByServer: true, status: undefined });

      // A held connection is still served.
      const answer = new Promise<string>((resolve) => held[0].once('data', (chunk: Buffer) => resolve(chunk.toString('latin1').split('\r\n')[0])));
      held[0].write('GET /api/v1/health/live HTTP/1.1\r\nHost: pos.test\r\n\r\n');
      expect(await answer).toBe('HTTP/1.1 200 OK');
    });
  });
});
