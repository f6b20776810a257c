#!/usr/bin/env node
// Every relative link in README.md and docs/**/*.md must resolve inside the repository: the file
// (or folder) exists, and a #anchor names a heading of the target Markdown file (GitHub's slugs).
// Links to other sites are not followed (the newcomer run sends only loopback traffic).
// Usage: node scripts/newcomer/check-links.js [root]
'use strict';
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(process.argv[2] ?? path.join(__dirname, '..', '..'));

function markdownFiles(dir) {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) return markdownFiles(p);
    return e.name.endsWith('.md') ? [p] : [];
  });
}

/** The text outside fenced code blocks and inline code, line by line (links there are not links). */
function proseLines(text) {
  let fence = null;
  return text.split('\n').map((line) => {
    const open = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      if (open && line.trim().startsWith(fence)) fence = null;
      return '';
    }
    if (open) {
      fence = open[1];
      return '';
    }
    return line.replace(/`[^`]*`/g, '');
  });
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, -1, -2 for repeats. */
function anchorsOf(file) {
  const seen = new Map();
  const anchors = new Set();
  let fence = null;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const open = /^\s*(```|~~~)/.exec(line);
    if (fence) {
      if (open && line.trim().startsWith(fence)) fence = null;
      continue;
    }
    if (open) {
      fence = open[1];
      continue;
    }
    const heading = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!heading) continue;
    const slug = heading[1]
      .replace(/<[^>]+>/g, '')
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    anchors.add(n === 0 ? slug : `${slug}-${n}`);
  }
  for (const m of fs.readFileSync(file, 'utf8').matchAll(/<a\s+(?:name|id)="([^"]+)"/g)) anchors.add(m[1]);
  return anchors;
}

const files = [path.join(root, 'README.md'), ...markdownFiles(path.join(root, 'docs'))];
const problems = [];
let checked = 0;
for (const file of files) {
  const rel = path.relative(root, file);
  // Whole text, so a link whose words wrap onto the next line is still seen; i is its line.
  const prose = proseLines(fs.readFileSync(file, 'utf8')).join('\n');
  for (const m of prose.matchAll(/!?\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
    const i = prose.slice(0, m.index).split('\n').length - 1;
    const target = m[1];
    if (/^[a-z][a-z0-9+.-]*:/i.test(target)) {
      if (!/^https?:|^mailto:/i.test(target)) problems.push(`${rel}:${i + 1}: unexpected scheme: ${target}`);
      continue;
    }
    checked++;
    const [pathPart, anchor] = target.split('#', 2);
    const resolved = pathPart ? path.resolve(path.dirname(file), decodeURIComponent(pathPart)) : file;
    if (!resolved.startsWith(root + path.sep) && resolved !== root) {
      problems.push(`${rel}:${i + 1}: leaves the repository: ${target}`);
      continue;
    }
    if (!fs.existsSync(resolved)) {
      problems.push(`${rel}:${i + 1}: no such file: ${target}`);
      continue;
    }
    if (anchor !== undefined) {
      if (!resolved.endsWith('.md')) problems.push(`${rel}:${i + 1}: an anchor into a file that is not Markdown: ${target}`);
      else if (!anchorsOf(resolved).has(anchor)) problems.push(`${rel}:${i + 1}: no heading #${anchor} in ${path.relative(root, resolved)}`);
    }
  }
}
if (problems.length > 0) {
  console.error(problems.join('\n'));
  console.error(`${problems.length} broken link(s) of ${checked} relative ones`);
  process.exit(1);
}
console.log(`links: ${checked} relative links in ${files.length} files, all resolve`);
