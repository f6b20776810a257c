import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { readEnvFile } from './env-file';

describe('readEnvFile', () => {
  const dir = mkdtempSync(join(tmpdir(), 'pos-env-'));
  writeFileSync(join(dir, '.env'), '# comment\nPORT=4000\nDB_TYPE="sqlite"\nLOG_LEVEL=debug\n');

  it('fills what the environment does not set, and the environment wins', () => {
    const env: NodeJS.ProcessEnv = { LOG_LEVEL: 'warn' };
    const result = readEnvFile(env, dir);
    expect(env).toEqual({ LOG_LEVEL: 'warn', PORT: '4000', DB_TYPE: 'sqlite' });
    expect(result.path).toBe(join(dir, '.env'));
    expect(result.applied.sort()).toEqual(['DB_TYPE', 'PORT']);
  });

  it('is silent when there is no .env, and refuses an ENV_FILE that does not exist', () => {
    const empty = mkdtempSync(join(tmpdir(), 'pos-env-'));
    expect(readEnvFile({}, empty)).toEqual({ applied: [] });
    expect(() => readEnvFile({ ENV_FILE: 'missing.env' }, empty)).toThrow(/ENV_FILE names .*missing\.env/);
  });

  it('reads the file ENV_FILE names', () => {
    writeFileSync(join(dir, 'other.env'), 'PORT=5000\n');
    const env: NodeJS.ProcessEnv = { ENV_FILE: 'other.env' };
    readEnvFile(env, dir);
    expect(env.PORT).toBe('5000');
  });
});
