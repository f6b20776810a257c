import { DataSource } from 'typeorm';

/** A mysql2 pool of the application: the primary's, or one read replica's. */
export interface NamedPool<P = unknown> {
  role: 'primary' | 'replica';
  /** PoolCluster node id (MASTER, SLAVE0, SLAVE1...); MASTER for a single pool. */
  node: string;
  /** Position of a replica in DB_READ_HOSTS / DB_READ_URLS, from 1 (0: the primary). */
  index: number;
  pool: P;
}

interface ClusterShape {
  _nodes?: Record<string, { id: string; pool: unknown } | undefined>;
}

/**
 * Every mysql2 pool TypeORM's driver holds: `driver.pool` alone, or with replication
 * (`replication` option) the pools of `driver.poolCluster` (MASTER and SLAVE<i>; mysql2 keeps
 * them in `_nodes`). Empty on SQLite. Throws when a MySQL driver has neither (TypeORM changed),
 * so the bounds and the metrics fail loudly instead of leaving a pool unbounded.
 */
export function mysqlPools<P = unknown>(db: DataSource): NamedPool<P>[] {
  if (db.options.type !== 'mysql' && db.options.type !== 'mariadb') return [];
  const driver = db.driver as unknown as { pool?: P; poolCluster?: ClusterShape };
  if (driver.pool) return [{ role: 'primary', node: 'MASTER', index: 0, pool: driver.pool }];
  const nodes = driver.poolCluster?._nodes;
  if (!nodes) throw new Error('The MySQL driver has neither a pool nor a pool cluster (TypeORM or mysql2 changed?)');
  const out: NamedPool<P>[] = [];
  for (const node of Object.values(nodes)) {
    if (!node) continue;
    const replica = /^SLAVE(\d+)$/.exec(node.id);
    out.push({ role: replica ? 'replica' : 'primary', node: node.id, index: replica ? Number(replica[1]) + 1 : 0, pool: node.pool as P });
  }
  return out.sort((a, b) => a.index - b.index);
}
