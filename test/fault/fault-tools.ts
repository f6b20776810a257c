import { ChildProcess, spawn } from 'node:child_process';
import type { Server as HttpServer } from 'node:http';
import { AddressInfo, createServer, Server, Socket, connect } from 'node:net';
import { NestExpressApplication } from '@nestjs/platform-express';
import { createApiApp } from '../../apps/api/src/bootstrap';
import { startTestApp, TestApp } from '../support/test-app';

/**
 * A TCP proxy between the app and a real server (MariaDB), for outages:
 *   freeze()  like SIGSTOP on the server: connections stay open, nothing is read or answered
 *             (new ones are accepted and wait); thaw() lets everything through again, in order.
 *   down()    like a crash: every connection is cut and new ones are refused; up() ends it.
 */
export class FaultProxy {
  private readonly sockets = new Set<Socket>();
  private readonly waiting: (() => void)[] = [];
  private frozen = false;
  private isDown = false;

  private constructor(
    private readonly server: Server,
    readonly port: number,
  ) {}

  static async start(targetHost: string, targetPort: number): Promise<FaultProxy> {
    const holder: { proxy?: FaultProxy } = {};
    const server = createServer((client) => holder.proxy!.accept(client, targetHost, targetPort));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    holder.proxy = new FaultProxy(server, (server.address() as AddressInfo).port);
    return holder.proxy;
  }

  private track(socket: Socket): void {
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => undefined);
  }

  private accept(client: Socket, host: string, port: number): void {
    this.track(client);
    if (this.isDown) return void client.destroy();
    const open = () => {
      if (client.destroyed) return;
      const upstream = connect(port, host);
      this.track(upstream);
      client.pipe(upstream);
      upstream.pipe(client);
      client.on('close', () => upstream.destroy());
      upstream.on('close', () => client.destroy());
      if (this.frozen) this.hold(upstream, client);
    };
    if (this.frozen) {
      client.pause();
      this.waiting.push(open);
    } else open();
  }

  private hold(...sockets: Socket[]): void {
    // unpipe-free pause: a paused source stays paused because nothing is ever written to it meanwhile
    for (const s of sockets) s.pause();
  }

  freeze(): void {
    this.frozen = true;
    this.hold(...this.sockets);
  }

  thaw(): void {
    this.frozen = false;
    for (const s of this.sockets) s.resume();
    for (const open of this.waiting.splice(0)) open();
  }

  down(): void {
    this.isDown = true;
    this.frozen = false;
    this.waiting.length = 0;
    for (const s of this.sockets) s.destroy();
  }

  up(): void {
    this.isDown = false;
  }

  async close(): Promise<void> {
    this.down();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

/** A private redis-server (ports 6391-6399 belong to the fault suites), started and stopped by the test. */
export class PrivateRedis {
  private child?: ChildProcess;

  constructor(readonly port: number) {}

  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  async start(): Promise<void> {
    const child = spawn('redis-server', ['--port', String(this.port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--daemonize', 'no'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    this.child = child;
    await new Promise<void>((resolve, reject) => {
      let out = '';
      const timer = setTimeout(() => reject(new Error(`redis-server did not start: ${out}`)), 10_000);
      child.stdout!.on('data', (d: Buffer) => {
        out += d.toString();
        if (/Ready to accept connections/i.test(out)) {
          clearTimeout(timer);
          resolve();
        }
      });
      child.once('exit', (code) => {
        clearTimeout(timer);
        reject(new Error(`redis-server exited (${code}): ${out}`));
      });
    });
    child.stdout!.resume();
    child.stderr!.resume();
  }

  /** SIGSTOP: the server keeps its connections and answers nothing (a frozen Redis). */
  freeze(): void {
    this.child?.kill('SIGSTOP');
  }

  thaw(): void {
    this.child?.kill('SIGCONT');
  }

  async stop(): Promise<void> {
    const child = this.child;
    if (!child || child.exitCode !== null) return;
    this.child = undefined;
    await new Promise<void>((resolve) => {
      child.once('exit', () => resolve());
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    });
  }
}

/**
 * Two API replicas on one database and one private Redis: A is a test app started with `env`
 * (plus REDIS_URL), B is built from A's configuration, so the same database, Redis and prefixes.
 * start() in beforeAll, stop() in afterAll (it stops whatever started).
 */
export class TwoReplicas {
  readonly redis: PrivateRedis;
  a!: TestApp;
  b!: NestExpressApplication;
  bHttp!: HttpServer;

  constructor(
    redisPort: number,
    private readonly env: Record<string, string>,
  ) {
    this.redis = new PrivateRedis(redisPort);
  }

  async start(): Promise<void> {
    await this.redis.start();
    this.a = await startTestApp({ ...this.env, REDIS_URL: this.redis.url });
    this.b = await createApiApp(this.a.config, { logger: false });
    await this.b.init();
    this.bHttp = this.b.getHttpServer() as HttpServer;
  }

  async stop(): Promise<void> {
    await this.b?.close();
    await this.a?.close();
    await this.redis.stop();
  }
}

/** Runs `fn` and returns its result with the time it took (printed by the suites, asserted with slack). */
export async function timed<T>(fn: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await fn();
  return { value, ms: Math.round(performance.now() - started) };
}

/**
 * Polls `fn` until `ok`, for as long as the thing watched moves: the wait gives up only when
 * `progress` has shown the same key for `idleMs`, so a slow, busy machine that is still working
 * is waited for, and a stuck one fails. Returns the last value.
 */
export async function untilProgressStops<T>(
  fn: () => Promise<T>,
  ok: (v: T) => boolean,
  progress: (v: T) => string,
  idleMs = 30_000,
  everyMs = 100,
): Promise<T> {
  let key: string | undefined;
  let idleSince = Date.now();
  for (;;) {
    const v = await fn();
    if (ok(v)) return v;
    const now = progress(v);
    if (now !== key) [key, idleSince] = [now, Date.now()];
    else if (Date.now() - idleSince > idleMs) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}

/** What a bulk price job's wait watches move (its row or its status body): the status and the changes processed. */
export const jobProgress = (j: { status: string; processed: number }) => `${j.status}:${j.processed}`;

/** Polls `fn` until `ok` (or the time is up) and returns the last value. */
export async function until<T>(fn: () => Promise<T>, ok: (v: T) => boolean, ms = 15_000, everyMs = 100): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = await fn();
    if (ok(v) || Date.now() > end) return v;
    await new Promise((r) => setTimeout(r, everyMs));
  }
}
