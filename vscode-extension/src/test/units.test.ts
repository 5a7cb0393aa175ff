// Unit tests of the extension's own logic, without VS Code.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';

import { raceAt } from '../races';
import { RestartPolicy } from '../restarts';
import { analysisKeys, analysisSettings, serverCommand, traceLevel } from '../settings';
import { tomlKeys, tomlSchema } from '../schema';
import { StatusModel, takenFiles } from '../status';

const reader = (values: Record<string, unknown>) => <T>(key: string, fallback: T) =>
  (key in values ? values[key] : fallback) as T;

test('the server command is augur lsp plus the extra arguments', () => {
  assert.deepEqual(serverCommand(reader({})), { command: 'augur', args: ['lsp'] });
  assert.deepEqual(serverCommand(reader({ path: '/opt/augur/bin/augur', arguments: ['--workers', '1', 7] })), {
    command: '/opt/augur/bin/augur',
    args: ['lsp', '--workers', '1'],
  });
  assert.deepEqual(serverCommand(reader({ path: '  ' })), { command: 'augur', args: ['lsp'] });
});

test('analysis settings go to the server, the extension settings do not', () => {
  const s = analysisSettings(reader({ mp: 3, ma: 4, memoryModel: 'weak', symbolicArgs: [8], path: 'x', arguments: ['y'] }));
  assert.deepEqual(s, { mp: 3, ma: 4, memoryModel: 'weak', symbolicArgs: [8] });
  assert.equal(traceLevel(reader({ 'trace.server': 'verbose' })), 'verbose');
  assert.equal(traceLevel(reader({ 'trace.server': 'loud' })), 'off');
});

test('a crashing server is restarted a few times, then left stopped with a reason', () => {
  let now = 0;
  const p = new RestartPolicy(3, 60_000, () => now);
  for (let i = 0; i < 3; i++) {
    now += 1000;
    assert.equal(p.closed().restart, true, `crash ${i + 1}`);
  }
  now += 1000;
  const d = p.closed('exit status 2');
  assert.equal(d.restart, false);
  assert.match(d.message ?? '', /stopped 4 times .* exit status 2/);
  // Crashes far apart are forgiven.
  now += 120_000;
  assert.equal(p.closed().restart, true);
  p.reset();
});

test('the status follows the progress reports', () => {
  const s = new StatusModel();
  assert.match(s.view().text, /augur/);
  s.progress('a', { kind: 'begin', title: 'augur: account.c', message: 'starting' });
  s.progress('a', { kind: 'report', message: 'detecting: schedule 2/5', percentage: 8 });
  assert.equal(s.view().text, '$(sync~spin) augur: detecting: schedule 2/5 8%');
  assert.equal(s.view().busy, true);
  s.progress('b', { kind: 'begin', title: 'augur: other.c', message: 'classifying race 1/2' });
  assert.match(s.view().text, /classifying race 1\/2 \(\+1 more\)/);
  s.progress('b', { kind: 'end', message: 'canceled' });
  s.progress('a', { kind: 'end', message: '3 races: 1 spec-violated, 2 output-differs' });
  assert.equal(s.view().busy, false);
  assert.match(s.view().tooltip, /account.c: 3 races/);
  assert.equal(s.view().text, '$(check) augur');
  // An analysis that could not follow the whole program is no check mark.
  s.progress('c', { kind: 'begin', title: 'augur: grower.c', message: 'starting' });
  s.progress('c', { kind: 'end', message: 'incomplete (memory budget): no races' });
  assert.equal(s.view().text, '$(warning) augur: incomplete');
  assert.match(s.view().tooltip, /grower.c: incomplete \(memory budget\)/);
  s.progress('d', { kind: 'begin', title: 'augur: broken.c', message: 'building' });
  s.progress('d', { kind: 'end', message: 'does not compile' });
  assert.equal(s.view().text, '$(error) augur: failed');
  s.progress('e', { kind: 'begin', title: 'augur: broken.c', message: 'building' });
  s.progress('e', { kind: 'end', message: 'no races' }); // fixed
  s.progress('f', { kind: 'begin', title: 'augur: grower.c', message: 'building' });
  s.progress('f', { kind: 'end', message: 'incomplete (memory budget): no races (code unchanged: results reused)' });
  assert.equal(s.view().text, '$(warning) augur: incomplete');
  // Another file's complete analysis, ending after, does not hide it.
  s.progress('g', { kind: 'begin', title: 'augur: account.c', message: 'building' });
  s.progress('g', { kind: 'end', message: '3 races: 1 spec-violated, 2 output-differs' });
  assert.equal(s.view().text, '$(warning) augur: incomplete');
  assert.match(s.view().tooltip, /account.c: 3 races[^]*grower.c: incomplete/);
  s.progress('h', { kind: 'begin', title: 'augur: grower.c', message: 'building' });
  s.progress('h', { kind: 'end', message: 'no races' });
  assert.equal(s.view().text, '$(check) augur');
  // A program completed from the workspace names the files taken.
  s.progress('i', { kind: 'begin', title: 'augur: tally/main.c', message: 'building' });
  s.progress('i', {
    kind: 'end',
    message: '1 race: 1 output-differs; with tally.c (defines tally_start, used by main.c), log.c (defines log_line, used by tally.c)',
  });
  assert.equal(s.view().text, '$(check) augur · main.c with tally.c, log.c');
  assert.match(s.view().tooltip, /tally\.c \(defines tally_start, used by main\.c\)/);
  s.progress('j', { kind: 'begin', title: 'augur: a.c', message: 'building' });
  s.progress('j', {
    kind: 'end',
    message: 'no races; with b.c (defines b, used by a.c), c.c (defines c, used by b.c), d.c (defines d, used by a.c), e.c (defines e, used by a.c)',
  });
  assert.equal(s.view().text, '$(check) augur · a.c with b.c, c.c, 2 more');
  s.progress('k', { kind: 'begin', title: 'augur: grower.c', message: 'building' });
  s.progress('k', { kind: 'end', message: 'incomplete (memory budget): no races' });
  assert.equal(s.view().text, '$(warning) augur: incomplete'); // the last analysis took no file
  assert.deepEqual(takenFiles('3 races: 1 spec-violated'), []);
  s.serverStopped('it crashed');
  assert.equal(s.view().text, '$(error) augur: stopped');
});

test('the race at the cursor is found among the diagnostics', () => {
  const d = (line: number, from: number, to: number, id?: string, source = 'augur') => ({
    source,
    range: { start: { line, character: from }, end: { line, character: to } },
    data: id ? { raceId: id } : undefined,
  });
  const diags = [d(3, 0, 5, undefined), d(4, 1, 8, 'r1'), d(4, 11, 18, 'r2'), d(6, 0, 3, 'r3', 'clangd')];
  assert.equal(raceAt(diags, { line: 4, character: 12 }), 'r2');
  assert.equal(raceAt(diags, { line: 4, character: 9 }), 'r1'); // on the line, in neither range
  assert.equal(raceAt(diags, { line: 3, character: 1 }), undefined);
  assert.equal(raceAt(diags, { line: 6, character: 1 }), undefined);
});

test('every client setting docs/configuration.md documents is declared and sent to the server', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof import('node:path');
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json');
  const declared = Object.keys(pkg.contributes.configuration.properties);
  const documented = new Set<string>();
  for (const m of doc.matchAll(/\| `(augur\.[A-Za-z.]+)` \|$/gm)) {
    documented.add(m[1]);
  }
  assert.ok(documented.size >= 20, `only ${documented.size} client settings found in the table`);
  for (const name of documented) {
    assert.ok(declared.includes(name), `${name} is documented but not declared in package.json`);
    assert.ok((analysisKeys as readonly string[]).includes(name.slice('augur.'.length)),
      `${name} is documented but not sent to the server`);
  }
});

test('schemas/augur.toml.schema.json is the schema made from package.json and docs/configuration.md', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof import('node:path');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json');
  const doc = fs.readFileSync(path.join(__dirname, '..', '..', '..', 'docs', 'configuration.md'), 'utf8');
  const want = tomlSchema(pkg, doc);
  const file = path.join(__dirname, '..', '..', 'schemas', 'augur.toml.schema.json');
  if (process.env.AUGUR_UPDATE_SCHEMA) {
    fs.writeFileSync(file, JSON.stringify(want, null, 2) + '\n');
  }
  assert.equal(tomlKeys(doc).size, analysisKeys.length, 'every analysis setting has an augur.toml key in the table');
  assert.deepEqual(JSON.parse(fs.readFileSync(file, 'utf8')), want,
    'the schema is stale: run AUGUR_UPDATE_SCHEMA=1 npm test in vscode-extension');
  assert.deepEqual(pkg.contributes.tomlValidation, [{ fileMatch: 'augur.toml', url: './schemas/augur.toml.schema.json' }]);
  const props = (want.properties as Record<string, any>);
  assert.deepEqual(props['memory-model'].enum, ['sc', 'weak']);
  assert.deepEqual(props.timeout.type, ['string', 'integer']);
  assert.deepEqual(props.target.items.required, ['sources']);
});

test('the walkthrough names files and commands that exist', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const fs = require('node:fs') as typeof import('node:fs');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const path = require('node:path') as typeof import('node:path');
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json');
  const root = path.join(__dirname, '..', '..');
  const ours = new Set<string>(pkg.contributes.commands.map((c: { command: string }) => c.command));
  const builtin = new Set(['workbench.action.openSettings', 'workbench.action.openWalkthrough', 'augur.races.focus']);
  const [w] = pkg.contributes.walkthroughs;
  assert.ok(w.steps.length >= 4);
  for (const step of w.steps) {
    const md = path.join(root, step.media.markdown);
    assert.ok(fs.existsSync(md), `${step.id}: ${md} does not exist`);
    const text = step.description + fs.readFileSync(md, 'utf8');
    for (const m of text.matchAll(/command:([\w.]+)/g)) {
      assert.ok(ours.has(m[1]) || builtin.has(m[1]), `${step.id} runs ${m[1]}, which nothing declares`);
    }
    for (const ev of step.completionEvents ?? []) {
      const cmd = /^onCommand:(.*)$/.exec(ev);
      assert.ok(!cmd || ours.has(cmd[1]), `${step.id} completes on ${ev}, which nothing declares`);
    }
  }
  assert.ok(fs.existsSync(path.join(root, pkg.contributes.viewsContainers.activitybar[0].icon)));
});
