#!/usr/bin/env node
'use strict';
/**
 * The operator CLI's launcher (`npm run cli`, `migrate`, `seed:*`, `reports:rebuild`): runs the
 * built CLI, building first (`nest build api`, its output on stderr so stdout stays JSON) only
 * when dist is missing or a source is newer than it. A second run with nothing changed starts at
 * once. CLI_SKIP_BUILD=1 runs dist as it is.
 */
const { mkdirSync, readdirSync, rmSync, statSync } = require('node:fs');
const { join } = require('node:path');
const { spawnSync } = require('node:child_process');

const root = join(__dirname, '..', '..', '..');
const entry = join(root, 'dist', 'apps', 'cli', 'src', 'main.js');

function mtime(path) {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return undefined;
  }
}

/** The first source (TypeScript under apps/ and libs/, the build's configuration) newer than `than`, if any. */
function newerSource(than) {
  for (const file of ['tsconfig.json', 'tsconfig.build.json', 'nest-cli.json']) if ((mtime(join(root, file)) ?? 0) > than) return file;
  const walk = (dir) => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return undefined;
    }
    for (const e of entries) {
      const path = join(dir, e.name);
      if (e.isDirectory()) {
        if (e.name === 'node_modules' || e.name.startsWith('.')) continue;
        const found = walk(path);
        if (found) return found;
      } else if (e.name.endsWith('.ts') && !e.name.endsWith('.spec.ts') && (mtime(path) ?? 0) > than) return path;
    }
    return undefined;
  };
  return walk(join(root, 'apps')) ?? walk(join(root, 'libs'));
}

/**
 * One build at a time (a second launcher waits for it, then finds dist current): a lock directory,
 * taken over when older than 10 minutes (a build that died).
 */
function withBuildLock(work) {
  const lock = join(root, 'node_modules', '.cache', 'pos-cli-build.lock');
  mkdirSync(join(lock, '..'), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch {
      if (Date.now() - (mtime(lock) ?? Date.now()) > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      else Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 500);
    }
  }
  try {
    return work();
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
}

const staleness = () => {
  const built = mtime(entry);
  return built === undefined ? 'no build yet' : newerSource(built);
};

if (process.env.CLI_SKIP_BUILD !== '1' && staleness()) {
  const failed = withBuildLock(() => {
    const built = mtime(entry);
    const stale = staleness(); // again: another launcher may have just built
    if (!stale) return 0;
    process.stderr.write(`cli: building first (${built === undefined ? stale : `${stale.replace(root + '/', '')} changed`}): npm run build\n`);
    const nest = require.resolve('@nestjs/cli/bin/nest.js', { paths: [root] });
    const res = spawnSync(process.execPath, [nest, 'build', 'api'], { cwd: root, stdio: ['ignore', 2, 2] });
    if (res.status !== 0) {
      process.stderr.write(`cli: the build failed (exit ${res.status ?? res.signal}); fix it, or run the last build with CLI_SKIP_BUILD=1\n`);
      return res.status || 1;
    }
    return 0;
  });
  if (failed) process.exit(failed);
}
require(entry);
