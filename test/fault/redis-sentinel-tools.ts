import { ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { Redis } from 'ioredis';

/**
 * A private Redis master, its replica and three Sentinels on loopback ports of their own
 * (13500-13599 belong to the Sentinel suites), no persistence, files under /tmp. Every process
 * is killed at stop() and, should the test runner die first, when it exits.
 */
export class SentinelTopology {
  readonly masterName = 'pos-e2e';
  private readonly dir = mkdtempSync('/tmp/pos-sentinel-');
  private readonly processes = new Map<number, ChildProcess>();
  private readonly killAll = () => {
    for (const child of this.processes.values()) if (child.exitCode === null) child.kill('SIGKILL');
  };

  constructor(
    readonly dataPorts: [number, number] = [13500, 13501],
    readonly sentinelPorts: number[] = [13510, 13511, 13512],
  ) {}

  /** For REDIS_SENTINELS. */
  get sentinels(): string {
    return this.sentinelPorts.map((p) => `127.0.0.1:${p}`).join(',');
  }

  async start(): Promise<void> {
    process.once('exit', this.killAll);
    const [master, replica] = this.dataPorts;
    await this.startData(master);
    await this.startData(replica, master);
    await this.until(`replica ${replica} in sync`, async () => /master_link_status:up/.test(await this.info(replica, 'replication')));
    for (const port of this.sentinelPorts) {
      const conf = join(this.dir, `sentinel-${port}.conf`);
      writeFileSync(
        conf,
        [
          `port ${port}`,
          'bind 127.0.0.1',
          `dir ${this.dir}`,
          `sentinel monitor ${this.masterName} 127.0.0.1 ${master} 2`,
          `sentinel down-after-milliseconds ${this.masterName} 1000`,
          `sentinel failover-timeout ${this.masterName} 6000`,
          `sentinel parallel-syncs ${this.masterName} 1`,
          '',
        ].join('\n'),
      );
      await this.spawn(port, [conf, '--sentinel']);
    }
    // A failover needs every Sentinel to know the replica and the other Sentinels (quorum, election).
    await this.until('sentinels know each other and the replica', async () => {
      for (const port of this.sentinelPorts) {
        const [replicas, others] = await this.withClient(port, async (c) => [
          (await c.call('SENTINEL', 'REPLICAS', this.masterName)) as unknown[],
          (await c.call('SENTINEL', 'SENTINELS', this.masterName)) as unknown[],
        ]);
        if (replicas.length < 1 || others.length < this.sentinelPorts.length - 1) return false;
      }
      return true;
    });
  }

  /** The master's port as every Sentinel names it (undefined while they disagree). */
  async masterPort(): Promise<number | undefined> {
    const ports = await Promise.all(
      this.sentinelPorts.map((p) =>
        this.withClient(p, async (c) => Number(((await c.call('SENTINEL', 'GET-MASTER-ADDR-BY-NAME', this.masterName)) as string[])[1])),
      ),
    );
    return ports.every((p) => p === ports[0]) ? ports[0] : undefined;
  }

  /** Waits until every Sentinel names a master other than `oldPort` and that server says it is one. */
  async awaitNewMaster(oldPort: number): Promise<number> {
    let port: number | undefined;
    await this.until(`a master other than ${oldPort}`, async () => {
      port = await this.masterPort();
      return port !== undefined && port !== oldPort && /role:master/.test(await this.info(port, 'replication'));
    });
    return port!;
  }

  /** kill -9 of a data server (the master's crash). */
  kill(port: number): void {
    const child = this.processes.get(port);
    this.processes.delete(port);
    child?.kill('SIGKILL');
  }

  /** Starts a killed data server again, empty; the Sentinels make it a replica of the current master. */
  async restart(port: number): Promise<void> {
    await this.startData(port);
    await this.until(`${port} back as an in-sync replica`, async () => {
      const info = await this.info(port, 'replication');
      return /role:slave/.test(info) && /master_link_status:up/.test(info);
    });
    // ...and the Sentinels count it as a good replica (a failover picks among those).
    await this.until(`sentinels see ${port} as a replica`, async () => {
      const replicas = (await this.withClient(this.sentinelPorts[0], (c) => c.call('SENTINEL', 'REPLICAS', this.masterName))) as string[][];
      return replicas.some((r) => r[r.indexOf('port') + 1] === String(port) && !/s_down|disconnected/.test(r[r.indexOf('flags') + 1]));
    });
  }

  /** A graceful failover (SENTINEL FAILOVER): the replica is promoted, the old master becomes its replica. */
  async failover(): Promise<void> {
    await this.withClient(this.sentinelPorts[0], (c) => c.call('SENTINEL', 'FAILOVER', this.masterName));
  }

  /** A direct connection to one data server (for the assertions: which keys the master holds). */
  async withClient<T>(port: number, fn: (c: Redis) => Promise<T>): Promise<T> {
    const client = new Redis({ port, host: '127.0.0.1', lazyConnect: true, retryStrategy: () => null, maxRetriesPerRequest: 0, connectTimeout: 1000 });
    client.on('error', () => undefined);
    try {
      await client.connect();
      return await fn(client);
    } finally {
      client.disconnect();
    }
  }

  async stop(): Promise<void> {
    const children = [...this.processes.values()];
    this.processes.clear();
    await Promise.all(
      children.map(
        (child) =>
          new Promise<void>((resolve) => {
            if (child.exitCode !== null || child.signalCode !== null) return resolve();
            child.once('exit', () => resolve());
            child.kill('SIGKILL');
          }),
      ),
    );
    process.removeListener('exit', this.killAll);
    rmSync(this.dir, { recursive: true, force: true });
  }

  private info(port: number, section: string): Promise<string> {
    return this.withClient(port, (c) => c.info(section)).catch(() => '');
  }

  private async startData(port: number, replicaOf?: number): Promise<void> {
    const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no', '--dir', this.dir];
    if (replicaOf) args.push('--replicaof', '127.0.0.1', String(replicaOf));
    await this.spawn(port, args);
  }

  private async spawn(port: number, args: string[]): Promise<void> {
    const child = spawn('redis-server', [...args, '--logfile', join(this.dir, `${port}.log`), '--daemonize', 'no'], { stdio: 'ignore' });
    this.processes.set(port, child);
    await this.until(`redis-server on ${port}`, async () => (await this.withClient(port, (c) => c.ping()).catch(() => '')) === 'PONG');
  }

  /** Polls `check` (100 ms apart, at most 300 times) and throws naming `what` if it never holds. */
  private async until(what: string, check: () => Promise<boolean>): Promise<void> {
    for (let i = 0; i < 300; i++) {
      if (await check().catch(() => false)) return;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    throw new Error(`Sentinel topology: gave up waiting for ${what}`);
  }
}
