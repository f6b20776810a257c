import { copyFileSync, existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';

/**
 * One migrated, demo-seeded SQLite database per `jest` run (issue 27): the first suite to ask
 * builds it in POS_TEST_TEMPLATE_DIR (made by global-setup.js) by booting the app once; every
 * suite then opens its own file copy, so boots skip the migrations and the demo seed. Suites in
 * other workers wait for the build (the jest backstop bounds the wait; a failed build is reported
 * to every waiter). Without POS_TEST_TEMPLATE_DIR (jest run without the global setup) there is no
 * template and callers fall back to a fresh database.
 */
export const templateDir = (): string | undefined => process.env.POS_TEST_TEMPLATE_DIR || undefined;

const sleep = (ms: number) => new Promise<void>((r) => setTimeout(r, ms));

/**
 * Runs build() once per run for `kind` (the first caller builds, under a lock directory; the
 * others wait for its marker). A failed build is reported to every waiter.
 */
export async function buildOnce(dir: string, kind: string, build: () => Promise<void>): Promise<void> {
  const ready = join(dir, `${kind}.ready`);
  const failed = join(dir, `${kind}.failed`);
  if (existsSync(ready)) return;
  let builder = true;
  try {
    mkdirSync(join(dir, `${kind}.lock`));
  } catch {
    builder = false;
  }
  if (builder) {
    try {
      await build();
      writeFileSync(ready, '');
      return;
    } catch (e) {
      writeFileSync(failed, String((e as Error).stack ?? e));
      throw e;
    }
  }
  for (;;) {
    if (existsSync(ready)) return;
    if (existsSync(failed)) throw new Error(`the ${kind} template database failed to build:\n${readFileSync(failed, 'utf8')}`);
    await sleep(50);
  }
}

/** The template's path, building it first if no suite has. build(path) boots the app on path and closes it. */
async function template(dir: string, build: (path: string) => Promise<void>): Promise<string> {
  const path = join(dir, 'template.sqlite');
  await buildOnce(dir, 'sqlite', async () => {
    const building = join(dir, 'template.building.sqlite');
    await build(building);
    // Fold the write-ahead log into the file so that one file is the whole database.
    const db = new Database(building);
    db.pragma('wal_checkpoint(TRUNCATE)');
    db.pragma('journal_mode = DELETE');
    db.close();
    renameSync(building, path);
  });
  return path;
}

/**
 * A private copy of the run's template at `path` (default: a new file in the template directory),
 * or undefined when there is no template directory. The copy is removed by removeCopy().
 */
export async function copyOfTemplate(build: (path: string) => Promise<void>, path?: string): Promise<string | undefined> {
  const dir = templateDir();
  if (!dir) return undefined;
  const source = await template(dir, build);
  const target = path ?? join(dir, `suite-${process.pid}-${randomBytes(4).toString('hex')}.sqlite`);
  copyFileSync(source, target);
  return target;
}

export function removeCopy(path: string): void {
  for (const suffix of ['', '-wal', '-shm', '-journal']) rmSync(path + suffix, { force: true });
}
