import { readdirSync, readFileSync } from 'fs';
import { join } from 'path';
import { MigrationInterface } from 'typeorm';
import { MIGRATIONS } from './index';

type MigrationClass = new () => MigrationInterface;

const FILE = /^(\d{13})-[a-z0-9-]+\.ts$/;

/** The timestamp TypeORM reads: the last 13 characters of the migration's `name` (else its class name). */
function timestampOf(m: MigrationClass): number {
  const instance = new m();
  return Number((instance.name ?? m.name).slice(-13));
}

/**
 * What is wrong with a migration history: `list` as the DataSource is given it, `files` the
 * migration files of the folder, each with the classes it exports. Empty when every file's
 * migration is listed once, in timestamp order, no two sharing a timestamp.
 */
function historyProblems(list: MigrationClass[], files: { file: string; classes: MigrationClass[] }[]): string[] {
  const problems: string[] = [];
  const stamps = list.map(timestampOf);
  for (const [i, m] of list.entries()) {
    const instance = new m();
    if (instance.name !== m.name) problems.push(`${m.name}: its name property is ${String(instance.name)}`);
    if (!Number.isSafeInteger(stamps[i]) || String(stamps[i]).length !== 13) problems.push(`${m.name}: no 13-digit timestamp at the end of its name`);
    if (i > 0 && stamps[i] < stamps[i - 1]) problems.push(`${m.name} is listed after ${list[i - 1].name}, which is later`);
    if (stamps.indexOf(stamps[i]) !== i) problems.push(`${m.name} shares timestamp ${stamps[i]} with ${list[stamps.indexOf(stamps[i])].name}`);
    if (list.indexOf(m) !== i) problems.push(`${m.name} is listed twice`);
  }
  for (const { file, classes } of files) {
    const stamp = FILE.exec(file)?.[1];
    if (!stamp) problems.push(`${file}: not named <13-digit timestamp>-<kebab-name>.ts`);
    if (classes.length !== 1) problems.push(`${file}: exports ${classes.length} migration classes, not one`);
    for (const m of classes) {
      if (!list.includes(m)) problems.push(`${file}: ${m.name} is not in MIGRATIONS`);
      if (stamp && String(timestampOf(m)) !== stamp) problems.push(`${file}: ${m.name} does not carry the file's timestamp ${stamp}`);
    }
  }
  for (const m of list) if (!files.some((f) => f.classes.includes(m))) problems.push(`${m.name} is listed but no file of the folder exports it`);
  return problems;
}

function isMigrationClass(value: unknown): value is MigrationClass {
  const proto = (value as { prototype?: Partial<MigrationInterface> } | undefined)?.prototype;
  return typeof value === 'function' && typeof proto?.up === 'function' && typeof proto?.down === 'function';
}

async function folderFiles(): Promise<{ file: string; classes: MigrationClass[] }[]> {
  const names = readdirSync(__dirname).filter((f) => f.endsWith('.ts') && f !== 'index.ts' && !f.endsWith('.spec.ts'));
  return Promise.all(
    names.map(async (file) => {
      const module = (await import(join(__dirname, file))) as Record<string, unknown>;
      return { file, classes: Object.values(module).filter(isMigrationClass) };
    }),
  );
}

describe('the migration history', () => {
  it('lists every migration file of the folder once, sorted by timestamp, no two sharing one', async () => {
    const files = await folderFiles();
    expect(files.length).toBeGreaterThan(30);
    expect(historyProblems(MIGRATIONS, files)).toEqual([]);
  });

  it('imports no runtime code that can change (a backfill a migration runs is a frozen copy)', () => {
    // typeorm's schema API, the column builders written for migrations, and an earlier migration
    // (frozen too: a later one may run its fill again); nothing of a context.
    const allowed = new Set(['typeorm', '../columns']);
    const files = readdirSync(__dirname).filter((f) => FILE.test(f));
    const earlier = (file: string, from: string) => files.some((f) => `./${f.replace(/\.ts$/, '')}` === from && f < file);
    const foreign = files
      .flatMap((f) => [...readFileSync(join(__dirname, f), 'utf8').matchAll(/from '([^']+)'/g)].map((m) => ({ f, from: m[1] })))
      .filter(({ f, from }) => !allowed.has(from) && !earlier(f, from))
      .map(({ f, from }) => `${f}: ${from}`);
    expect(foreign).toEqual([]);
  });

  describe('the check itself', () => {
    const list = MIGRATIONS as MigrationClass[];
    const files = () => folderFiles();

    it('fails when two migrations are out of timestamp order', async () => {
      const swapped = [list[1], list[0], ...list.slice(2)];
      expect(historyProblems(swapped, await files())).toEqual([`${list[0].name} is listed after ${list[1].name}, which is later`]);
    });

    it('fails when a file of the folder is missing from the list', async () => {
      const problems = historyProblems(list.slice(0, -1), await files());
      expect(problems).toEqual([expect.stringMatching(new RegExp(`: ${list[list.length - 1].name} is not in MIGRATIONS$`))]);
    });

    it('fails when two migrations share a timestamp', async () => {
      const last = list[list.length - 1];
      const stamp = String(timestampOf(last));
      class Twin implements MigrationInterface {
        name = `Twin${stamp}`;
        async up(): Promise<void> {}
        async down(): Promise<void> {}
      }
      Object.defineProperty(Twin, 'name', { value: `Twin${stamp}` });
      const problems = historyProblems([...list, Twin], [...(await files()), { file: `${stamp}-twin.ts`, classes: [Twin] }]);
      expect(problems).toEqual([`Twin${stamp} shares timestamp ${stamp} with ${last.name}`]);
    });
  });
});
