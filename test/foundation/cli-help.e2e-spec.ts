import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Command } from '../../apps/cli/src/cli/command';
import { runCli } from '../../apps/cli/src/cli/run';
import { COMMANDS } from '../../apps/cli/src/commands/index';

/** Runs the CLI in-process with captured streams; returns the exit code and what it printed. */
async function cli(...argv: string[]) {
  const out: string[] = [];
  const err: string[] = [];
  const code = await runCli(argv, COMMANDS, { stdout: { write: (c: string) => out.push(c) }, stderr: { write: (c: string) => err.push(c) } });
  return { code, stdout: out.join(''), stderr: err.join('') };
}

/**
 * The operator CLI's front: help without a database or Nest, refusals as one line with an exit
 * code, the API's validation before anything is opened, and `.env` read like the API.
 */
describe('CLI help and refusals', () => {
  const env = { ...process.env };
  afterEach(() => {
    for (const k of Object.keys(process.env)) if (!(k in env)) delete process.env[k];
    Object.assign(process.env, env);
  });

  it('lists every command on --help, and none touches the database to do it', async () => {
    const spied = COMMANDS.map((c) => jest.spyOn(c as Command, 'run'));
    const { code, stdout } = await cli('--help');
    expect(code).toBe(0);
    for (const c of COMMANDS) expect(stdout).toContain(`${c.name} `);
    expect(stdout).toMatch(/Exit codes: 0 done, 64 bad usage, 65 refused/);
    for (const s of spied) expect(s).not.toHaveBeenCalled();
    for (const s of spied) s.mockRestore();
  });

  it("shows each command's own flags, required ones marked, and examples, without running it", async () => {
    for (const c of COMMANDS) {
      const run = jest.spyOn(c as Command, 'run');
      const { code, stdout } = await cli(c.name, '--help');
      expect(code).toBe(0);
      expect(stdout).toContain(`usage: npm run cli -- ${c.name}`);
      for (const [flag, spec] of Object.entries(c.flags)) expect(stdout).toMatch(new RegExp(`--${flag}\\b.*${spec.required ? '\\(required\\)' : ''}`));
      expect(stdout).toContain('examples:');
      expect(run).not.toHaveBeenCalled();
      run.mockRestore();
    }
    const help = (await cli('app:create', '--help')).stdout;
    expect(help).toContain('--permissions LIST');
    expect(help).not.toContain('--sales');
  });

  it('refuses an unknown command, suggesting near names, in one line with exit 64', async () => {
    const r = await cli('app:creat', '--name', 'x');
    expect([r.code, r.stdout]).toEqual([64, '']);
    expect(r.stderr).toBe('unknown command "app:creat" (did you mean app:create?); "npm run cli -- --help" lists the commands\n');
  });

  it("refuses an unknown flag, a stray word and a missing required flag, pointing to the command's help", async () => {
    const unknown = await cli('token:revoke', '--app', '1', '--token', '2', '--force');
    expect(unknown).toEqual({ code: 64, stdout: '', stderr: 'token:revoke: unknown flag --force; "npm run cli -- token:revoke --help" lists its flags\n' });
    const stray = await cli('migrate', 'now');
    expect(stray.code).toBe(64);
    expect(stray.stderr).toMatch(/^migrate: unexpected argument "now"/);
    const missing = await cli('token:issue', '--name', 'x');
    expect(missing.code).toBe(64);
    expect(missing.stderr).toBe('token:issue: --app, --abilities are required; "npm run cli -- token:issue --help" shows usage\n');
    const bad = await cli('seed:volume', '--sales', 'lots');
    expect(bad).toMatchObject({ code: 64, stderr: '--sales must be a whole number of at least 1 (got "lots")\n' });
    const notADay = await cli('seed:volume', '--sales', '10', '--as-of', '2026-02-30');
    expect(notADay).toMatchObject({ code: 64, stderr: '--as-of must be a date YYYY-MM-DD (got "2026-02-30")\n' });
    const later = await cli('seed:volume', '--sales', '10', '--as-of', '2999-01-01');
    expect(later).toMatchObject({ code: 64, stderr: '--as-of must be today or an earlier day\n' });
  });

  it('refuses a made-up permission or ability by name (exit 65), before opening the database', async () => {
    process.env.DB_SQLITE_PATH = join(tmpdir(), `pos-cli-never-${process.pid}`, 'never.sqlite'); // a directory that does not exist
    const perm = await cli('app:create', '--name', 'Made up', '--permissions', 'sales.view,sales.teleport');
    expect(perm.code).toBe(65);
    expect(perm.stderr).toMatch(/^unknown permission "sales\.teleport" in --permissions \(known: pos\.access, .*sales\.view/);
    expect(perm.stderr.trim().split('\n')).toHaveLength(1);
    const ability = await cli('token:issue', '--app', '1', '--name', 'x', '--abilities', 'integration:write');
    expect(ability.code).toBe(65);
    expect(ability.stderr).toMatch(/^unknown ability "integration:write" in --abilities \(known: \*, pos, integration:read\)/);
  });

  it('reads .env (here the file ENV_FILE names), the environment winning; a bad variable is one message and exit 78', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'pos-cli-env-'));
    try {
      writeFileSync(join(dir, 'cli.env'), 'DB_TYPE=postgres\nPORT=eighty\n');
      delete process.env.DB_TYPE;
      process.env.PORT = '3000';
      process.env.ENV_FILE = join(dir, 'cli.env');
      const r = await cli('migrate');
      expect(r.code).toBe(78);
      expect(r.stderr).toContain('DB_TYPE');
      expect(r.stderr).not.toContain('PORT'); // the environment's PORT wins over the file's
      expect(r.stderr).not.toMatch(/\n\s+at /);
      process.env.ENV_FILE = join(dir, 'missing.env');
      expect(await cli('migrate')).toMatchObject({ code: 78, stderr: expect.stringContaining('missing.env') });
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('prints an unexpected error with its stack (exit 1)', async () => {
    const migrate = COMMANDS.find((c) => c.name === 'migrate')!;
    const run = jest.spyOn(migrate as Command, 'run').mockRejectedValue(new TypeError('boom'));
    process.env.DB_TYPE = 'sqlite';
    const r = await cli('migrate');
    run.mockRestore();
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/^TypeError: boom\n\s+at /);
  });
});
