import { ConfigError, loadConfig } from './app-config';
import { dataSourceOptions } from '../database/data-source';

const MYSQL = { DB_TYPE: 'mysql', DB_HOST: 'db-primary', DB_PORT: '3307', DB_USERNAME: 'pos', DB_PASSWORD: 's3cret', DB_DATABASE: 'pos' };

function problems(env: Record<string, string>): string[] {
  try {
    loadConfig(env);
  } catch (e) {
    if (e instanceof ConfigError) return e.problems;
    throw e;
  }
  return [];
}

describe('read replicas config (DB_READ_HOSTS, DB_READ_URLS)', () => {
  it('has no replica when neither is set: one pool, exactly as before', () => {
    const c = loadConfig(MYSQL);
    expect(c.db.readReplicas).toEqual({ endpoints: [], maxLagSeconds: 5, checkIntervalMs: 1000 });
    const o = dataSourceOptions(c.db) as unknown as Record<string, unknown>;
    expect(o.replication).toBeUndefined();
    expect(o).toMatchObject({ host: 'db-primary', port: 3307, username: 'pos', database: 'pos' });
  });

  it('reads host[:port] lists (the primary port by default) and builds TypeORM replication with the same credentials', () => {
    const c = loadConfig({ ...MYSQL, DB_READ_HOSTS: ' replica-a:3310, replica-b ,10.0.0.7:3306', DB_READ_MAX_LAG_SECONDS: '10' });
    expect(c.db.readReplicas.endpoints).toEqual([
      { host: 'replica-a', port: 3310 },
      { host: 'replica-b', port: 3307 },
      { host: '10.0.0.7', port: 3306 },
    ]);
    expect(c.db.readReplicas.maxLagSeconds).toBe(10);
    const o = dataSourceOptions(c.db) as unknown as { replication: { master: unknown; slaves: unknown[]; defaultMode: string; canRetry: boolean } };
    expect(o.replication.master).toEqual({ host: 'db-primary', port: 3307, username: 'pos', password: 's3cret', database: 'pos' });
    expect(o.replication.slaves[1]).toEqual({ host: 'replica-b', port: 3307, username: 'pos', password: 's3cret', database: 'pos' });
    // nothing goes to a replica unless a use case asks for it; mysql2 never drops a node on its own
    expect(o.replication).toMatchObject({ defaultMode: 'master', canRetry: false });
  });

  it('reads mysql:// URL lists; host lists take the credentials of DATABASE_URL', () => {
    const urls = loadConfig({ ...MYSQL, DB_READ_URLS: 'mysql://ro:pw@r1:3306/pos,mysql://ro:pw@r2/pos' });
    expect(urls.db.readReplicas.endpoints).toEqual([{ url: 'mysql://ro:pw@r1:3306/pos' }, { url: 'mysql://ro:pw@r2/pos' }]);
    const c = loadConfig({ DB_TYPE: 'mysql', DATABASE_URL: 'mysql://app:p%40ss@primary:3306/shop', DB_READ_HOSTS: 'r1' });
    const o = dataSourceOptions(c.db) as unknown as { replication: { master: unknown; slaves: unknown[] } };
    expect(o.replication.master).toEqual({ url: 'mysql://app:p%40ss@primary:3306/shop' });
    expect(o.replication.slaves).toEqual([{ host: 'r1', port: 3306, username: 'app', password: 'p@ss', database: 'shop' }]);
  });

  it.each([
    [{ DB_READ_HOSTS: 'a:3306', DB_READ_URLS: 'mysql://b/pos' }, 'DB_READ_HOSTS and DB_READ_URLS cannot both be set'],
    [{ DB_READ_HOSTS: 'a:99999' }, 'DB_READ_HOSTS must be comma-separated host[:port] (got "a:99999")'],
    [{ DB_READ_HOSTS: 'mysql://a/pos' }, 'DB_READ_HOSTS must be comma-separated host[:port]'],
    [{ DB_READ_HOSTS: ' , ' }, 'DB_READ_HOSTS must list at least one replica'],
    [{ DB_READ_URLS: 'postgres://a/pos' }, 'DB_READ_URLS must be comma-separated mysql:// URLs'],
    [{ DB_READ_URLS: 'mysql://' }, 'DB_READ_URLS must be comma-separated mysql:// URLs'],
    [{ DB_READ_HOSTS: 'a', DB_READ_MAX_LAG_SECONDS: '0' }, 'DB_READ_MAX_LAG_SECONDS must be an integer between 1 and 86400'],
    [{ DB_READ_HOSTS: 'a', DB_READ_MAX_LAG_SECONDS: 'five' }, 'DB_READ_MAX_LAG_SECONDS must be an integer'],
    [{ DB_READ_HOSTS: 'a', DB_READ_CHECK_INTERVAL_MS: '-1' }, 'DB_READ_CHECK_INTERVAL_MS must be an integer between 0 and 60000'],
  ])('refuses to boot on %j with a clear message', (env, message) => {
    const found = problems({ ...MYSQL, ...env });
    expect(found.some((p) => p.startsWith(message))).toBe(true);
  });

  it('refuses replicas on the embedded database and never echoes a URL (it may hold a password)', () => {
    expect(problems({ DB_READ_HOSTS: 'a' })).toContain('DB_READ_HOSTS / DB_READ_URLS need DB_TYPE=mysql (the embedded database has no replicas)');
    const found = problems({ ...MYSQL, DB_READ_URLS: 'mysql://ro:topsecret@r1/pos,http://ro:topsecret@r2/pos' });
    expect(found.join('\n')).toContain('DB_READ_URLS must be comma-separated mysql:// URLs (got 1 that is not)');
    expect(found.join('\n')).not.toContain('topsecret');
  });
});
