// The problem matchers package.json contributes ($augur, $augur-failures,
// $augur-compile), applied as VS Code applies them to the output of a task
// that runs `augur analyze`, against the real binary: the problems they
// find are the races, failures and compile errors of the JSON report.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

const repo = path.resolve(__dirname, '..', '..', '..');
const augur = process.env.AUGUR_BIN ?? path.join(repo, 'bin', 'augur');

interface Pattern {
  regexp: string;
  file?: number;
  line?: number;
  column?: number;
  severity?: number;
  code?: number;
  message?: number;
}

interface Problem {
  file: string;
  line: number;
  column?: number;
  severity: string;
  code?: string;
  message: string;
}

/** Applies a (multi-line) matcher: each pattern must match a consecutive line. */
function apply(patterns: Pattern[], lines: string[]): Problem[] {
  const out: Problem[] = [];
  for (let i = 0; i + patterns.length <= lines.length; i++) {
    const got: Partial<Problem> = {};
    let ok = true;
    patterns.forEach((p, j) => {
      const m = ok ? new RegExp(p.regexp).exec(lines[i + j]) : null;
      if (!m) {
        ok = false;
        return;
      }
      if (p.file) got.file = m[p.file];
      if (p.line) got.line = Number(m[p.line]);
      if (p.column && m[p.column]) got.column = Number(m[p.column]);
      if (p.severity) got.severity = m[p.severity].toLowerCase();
      if (p.code) got.code = m[p.code];
      if (p.message) got.message = m[p.message];
    });
    if (ok) {
      out.push(got as Problem);
    }
  }
  return out;
}

function matcher(name: string): Pattern[] {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json');
  const m = pkg.contributes.problemMatchers.find((x: { name: string }) => x.name === name);
  assert.ok(m, `no problem matcher ${name}`);
  assert.deepEqual(m.fileLocation, ['autoDetect', '${workspaceFolder}']);
  return Array.isArray(m.pattern) ? m.pattern : [m.pattern];
}

const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'augur-matchers-'));

/** Runs augur analyze from the repository, as a task in its workspace would. */
function analyze(file: string, json: boolean): { stdout: string; all: string } {
  const args = ['analyze', ...(json ? ['--format', 'json'] : []), file];
  const r = cp.spawnSync(augur, args, { cwd: repo, encoding: 'utf8', env: { ...process.env, AUGUR_CACHE_DIR: cache } });
  return { stdout: r.stdout, all: r.stdout + r.stderr };
}

test('$augur finds every race of augur analyze at its first access', () => {
  for (const file of ['testdata/lsp/retire.c', 'testdata/lsp/account.c']) {
    const problems = apply(matcher('augur'), analyze(file, false).all.split('\n'));
    const report = JSON.parse(analyze(file, true).stdout);
    const want = report.races.map((r: any) => `${r.accesses[0].file}:${r.accesses[0].line}:${r.accesses[0].column} warning data race on ${r.object} (${r.category})`);
    const got = problems.map((p) => `${p.file}:${p.line}:${p.column} ${p.severity} ${p.message}`);
    assert.ok(want.length >= 2, `${file}: ${want.length} races`);
    assert.deepEqual(got, want, file);
  }
});

test.after(() => fs.rmSync(cache, { recursive: true, force: true }));

test('$augur-failures finds a crash at its place, $augur-compile a compile error', () => {
  const failures = apply(matcher('augur-failures'), analyze('testdata/crash/abort.c', false).all.split('\n'));
  assert.deepEqual(failures, [
    { file: 'testdata/crash/abort.c', line: 6, column: 3, severity: 'error', code: 'crash', message: 'abort() called' },
  ]);
  const compile = apply(matcher('augur-compile'), analyze('testdata/lsp/broken.c', false).all.split('\n'));
  assert.equal(compile.length, 1);
  assert.equal(compile[0].file, 'testdata/lsp/broken.c');
  assert.equal(compile[0].severity, 'error');
  assert.match(compile[0].message, /undeclared identifier/);
});
