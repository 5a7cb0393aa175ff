// Tests of the extension's wiring, with a stand-in `vscode` module and a
// fake language client.
import { test, beforeEach } from 'node:test';
import * as assert from 'node:assert/strict';

import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';

import { install, state, vscodeMock, EventEmitter } from './mockVscode';
install();

// Loaded after the stand-in is in place.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const ext = require('../extension') as typeof import('../extension');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const lc = require('vscode-languageclient/node') as typeof import('vscode-languageclient/node');

class FakeClient {
  state = lc.State.Stopped;
  requests: { method: string; params: any }[] = [];
  handlers = new Map<string, (p: any) => unknown>();
  progress = new Map<string, (v: any) => void>();
  stateEvents = new EventEmitter<{ oldState: number; newState: number }>();
  onDidChangeState = this.stateEvents.event as any;
  failStart = '';
  features: any[] = [];
  // answer is what sendRequest resolves to.
  answer: unknown = null;
  constructor(public server: any, public options: any) {}
  registerFeature(f: any) {
    this.features.push(f);
  }
  async start() {
    if (this.failStart) throw new Error(this.failStart);
    this.state = lc.State.Running;
    this.stateEvents.fire({ oldState: lc.State.Starting, newState: lc.State.Running });
  }
  async stop() {
    this.state = lc.State.Stopped;
  }
  async setTrace() {}
  async sendRequest(method: string, params: any) {
    this.requests.push({ method, params });
    return this.answer;
  }
  onRequest(method: string, h: (p: any) => unknown) {
    this.handlers.set(method, h);
    return { dispose() {} };
  }
  onProgress(_t: unknown, token: string | number, h: (v: any) => void) {
    this.progress.set(String(token), h);
    return { dispose: () => this.progress.delete(String(token)) };
  }
}

let clients: FakeClient[] = [];
const factory = (server: any, options: any) => {
  const c = new FakeClient(server, options);
  clients.push(c);
  return c as any;
};

function context() {
  return { subscriptions: [] as { dispose(): unknown }[] } as any;
}

beforeEach(() => {
  state.reset();
  clients = [];
});

test('activation registers the commands and starts augur lsp with the settings', async () => {
  state.settings = { 'augur.path': '/usr/local/bin/augur', 'augur.arguments': ['--workers', '1'], 'augur.mp': 3, 'augur.memoryModel': 'weak' };
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  assert.deepEqual([...state.commands.keys()].sort(), [
    'augur.analyzeNow',
    'augur.applyFix',
    'augur.refreshRaces',
    'augur.replayEvidence',
    'augur.restart',
    'augur.showInterleaving',
  ]);
  const c = clients[0];
  assert.equal(c.server.command, '/usr/local/bin/augur');
  assert.deepEqual(c.server.args, ['lsp', '--workers', '1']);
  assert.deepEqual(c.options.initializationOptions, { mp: 3, memoryModel: 'weak' });
  assert.deepEqual(c.options.synchronize, { configurationSection: 'augur' });
  assert.deepEqual(c.options.documentSelector.map((s: any) => s.language), ['c', 'cpp']);
});

test('progress reports from the server drive the status bar', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  const c = clients[0];
  const create = c.handlers.get('window/workDoneProgress/create');
  assert.ok(create, 'the extension does not take the server-created progress tokens');
  create!({ token: 'augur-1' });
  const item = state.statusItems[0];
  c.progress.get('augur-1')!({ kind: 'begin', title: 'augur: account.c', message: 'starting' });
  c.progress.get('augur-1')!({ kind: 'report', message: 'classifying race 2/3', percentage: 70 });
  assert.equal(item.text, '$(sync~spin) augur: classifying race 2/3 70%');
  c.progress.get('augur-1')!({ kind: 'end', message: '3 races: 1 spec-violated' });
  assert.equal(item.text, '$(check) augur');
  assert.match(item.tooltip, /3 races/);
  assert.equal(c.progress.has('augur-1'), false, 'the progress handler was not released at the end');
});

test("the server's question which race to show is a quick pick, whose choices read whole", async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  const ask = clients[0].handlers.get('window/showMessageRequest');
  assert.ok(ask, 'the extension leaves the question to notification buttons');
  const params = {
    type: 3,
    message: 'This line holds 2 races or failures with evidence: which one?',
    actions: [{ title: 'pool->queue.len (spec-violated)' }, { title: 'the memory-error at pool.c:40' }],
  };
  state.pick = 'the memory-error at pool.c:40';
  assert.deepEqual(await ask!(params), { title: 'the memory-error at pool.c:40' });
  assert.deepEqual(state.quickPicks, [
    { items: ['pool->queue.len (spec-violated)', 'the memory-error at pool.c:40'], placeHolder: params.message },
  ]);
  state.pick = undefined; // dismissed
  assert.equal(await ask!(params), null);
});

test('an output difference opens as a diff of the two orders\' outputs', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  const c = clients[0];
  const caps: any = {};
  c.features[0].fillClientCapabilities(caps);
  assert.deepEqual(caps.experimental, { augurTimelineView: true, augurDiffView: true });
  const diffs: unknown[][] = [];
  state.commands.set('vscode.diff', (...args: unknown[]) => diffs.push(args));
  c.answer = { outputs: ['/c/race-1-output-alternate.txt', '/c/race-1-output-primary.txt'], shown: true };
  const exec = c.options.middleware.executeCommand;
  await exec('augur.server.showOutputDifference', ['1'], (cmd: string, args: unknown[]) => c.sendRequest('workspace/executeCommand', { command: cmd, arguments: args }));
  assert.equal(diffs.length, 1);
  const [a, b, title] = diffs[0] as [any, any, string];
  assert.equal(a.fsPath, '/c/race-1-output-alternate.txt');
  assert.equal(b.fsPath, '/c/race-1-output-primary.txt');
  assert.equal(title, 'augur: output, alternate order ↔ primary order');
  // Two orders that printed the same and left a file differently: the
  // file's two versions, named in the title.
  c.answer = { outputs: ['/c/race-1-primary-report.txt.txt', '/c/race-1-alternate-report.txt.txt'], shown: true };
  await exec('augur.server.showOutputDifference', ['1'], (cmd: string, args: unknown[]) => c.sendRequest('workspace/executeCommand', { command: cmd, arguments: args }));
  assert.equal(diffs.length, 2);
  assert.equal((diffs[1] as [any, any, string])[2], 'augur: report.txt, primary order ↔ alternate order');
});

test('the commands call the server', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  const c = clients[0];
  state.activeEditor = {
    document: { uri: { toString: () => 'file:///w/a.c' } },
    selection: { active: { line: 4, character: 3 } },
  };
  state.diagnostics = [{ source: 'augur', range: { start: { line: 4, character: 1 }, end: { line: 4, character: 8 } }, data: { raceId: 'abc' } }];
  await state.commands.get('augur.analyzeNow')!();
  await state.commands.get('augur.replayEvidence')!();
  await state.commands.get('augur.replayEvidence')!('given-id');
  assert.deepEqual(c.requests, [
    { method: 'workspace/executeCommand', params: { command: 'augur.server.analyzeNow', arguments: ['file:///w/a.c'] } },
    { method: 'workspace/executeCommand', params: { command: 'augur.server.replayEvidence', arguments: ['abc'] } },
    { method: 'workspace/executeCommand', params: { command: 'augur.server.replayEvidence', arguments: ['given-id'] } },
  ]);
  state.diagnostics = [];
  await state.commands.get('augur.replayEvidence')!();
  assert.match(state.infos[0], /no race at the cursor/);
});

test('a server that keeps crashing is stopped with a reason, and restart brings it back', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  const closed = clients[0].options.errorHandler.closed;
  for (let i = 0; i < 4; i++) {
    assert.equal(closed().action, lc.CloseAction.Restart);
  }
  assert.equal(closed().action, lc.CloseAction.DoNotRestart);
  assert.match(state.errors[0], /stopped 5 times/);
  assert.equal(state.statusItems[0].text, '$(error) augur: stopped');
  await state.commands.get('augur.restart')!();
  assert.equal(clients.length, 2);
  assert.equal(clients[1].state, lc.State.Running);
  assert.equal(state.statusItems[0].text, '$(check) augur');
  assert.equal(clients[1].options.errorHandler.closed().action, lc.CloseAction.Restart);
});

test('a binary that cannot start is reported with the setting to fix', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), (s, o) => {
    const c = factory(s, o);
    c.failStart = 'spawn augur ENOENT';
    return c;
  });
  await e.start();
  assert.match(state.errors[0], /could not start the language server .*ENOENT.*augur.path/);
  assert.equal(state.statusItems[0].text, '$(error) augur: stopped');
});

test('a server that fails for another reason does not send the user to augur.path', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), (s, o) => {
    const c = factory(s, o);
    c.failStart = 'Server initialization failed.';
    return c;
  });
  await e.start();
  assert.doesNotMatch(state.errors[0], /augur\.path/);
  assert.match(state.errors[0], /could not start the language server .*initialization failed.*output channel/);
});

test('the language client gets a log output channel, as vscode-languageclient 11 requires', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  assert.deepEqual(state.outputChannels, [{ name: 'augur', log: true }]);
  const ch = clients[0].options.outputChannel;
  // The client calls these at start: a plain OutputChannel lacks them and
  // the server never starts (the bug a real VS Code showed).
  assert.equal(typeof ch.error, 'function');
  assert.equal(typeof ch.onDidChangeLogLevel, 'function');
});

test('an untrusted workspace cannot choose the server binary or its arguments', async () => {
  state.settings = { 'augur.path': '/usr/local/bin/augur' };
  state.workspaceSettings = { 'augur.path': '/tmp/evil', 'augur.arguments': ['--evil'], 'augur.mp': 4 };
  state.trusted = false;
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  assert.equal(clients[0].server.command, '/usr/local/bin/augur');
  assert.deepEqual(clients[0].server.args, ['lsp']);
  assert.deepEqual(clients[0].options.initializationOptions, { mp: 4 }, 'analysis settings still apply');
  // Once the user trusts the workspace, its settings start the server.
  state.trusted = true;
  state.trustGranted.fire();
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(clients.length, 2);
  assert.equal(clients[1].server.command, '/tmp/evil');
});

test('package.json declares what an untrusted workspace may not set', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json');
  const ut = pkg.capabilities?.untrustedWorkspaces;
  assert.equal(ut?.supported, 'limited');
  assert.deepEqual([...ut.restrictedConfigurations].sort(), ext.restrictedSettings.map((k) => 'augur.' + k).sort());
});

test('changing augur.path restarts the server', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  state.configListeners.fire({ affectsConfiguration: (s: string) => s === 'augur.path' });
  await new Promise((r) => setImmediate(r));
  await new Promise((r) => setImmediate(r));
  assert.equal(clients.length, 2);
});

test('package.json declares every command the extension registers', async () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json');
  new ext.AugurExtension(vscodeMock, context(), factory);
  const declared = pkg.contributes.commands.map((c: { command: string }) => c.command).sort();
  assert.deepEqual(declared, [...state.commands.keys()].sort());
});

// A diagnostic as vscode-languageclient hands it out: the code is an
// object once the server links it to documentation; the category is in data.
function raceDiag(line: number, id: string, category: string, evidence = false,
  message = `Data race on x with the write in f (a.c:${line + 9}, thread 2; this read is thread 1's). Details.`) {
  return {
    source: 'augur',
    range: { start: { line, character: 2 }, end: { line, character: 5 } },
    code: { value: category, target: { toString: () => 'file:///docs/categories.md#' + category } },
    message,
    data: { raceId: id, category, target: 't', access: 0, ...(evidence ? { evidence: true } : {}) },
  };
}

test('the races view groups the races by category and file, follows the diagnostics, and counts the harmful ones', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  const view = state.treeViews.find((v) => v.id === 'augur.races');
  assert.ok(view, 'no augur.races tree view');
  assert.equal(view!.provider.getChildren().length, 0);
  assert.match(view!.message ?? '', /No races/);

  const a = vscodeMock.Uri.file('/w/a.c');
  const b = vscodeMock.Uri.file('/w/lib/b.c');
  state.allDiagnostics = [
    [a, [raceDiag(9, 'r1', 'k-witness-harmless'), raceDiag(3, 'r2', 'spec-violated'), raceDiag(12, 'r2', 'spec-violated'),
      raceDiag(20, 'r5', 'spec-violated', true),
      { source: 'augur (clang)', range: { start: { line: 1, character: 0 } }, message: 'error', data: undefined }]],
    [b, [raceDiag(4, 'r3', 'output-differs'), raceDiag(7, 'r4', 'spec-violated')]],
  ];
  state.diagnosticsChanged.fire({});
  const cats = view!.provider.getChildren();
  const label = (n: any) => view!.provider.getTreeItem(n).label;
  assert.deepEqual(cats.map(label), ['spec-violated (3)', 'output-differs (1)', 'k-witness-harmless (1)']);
  assert.deepEqual(view!.badge, { value: 4, tooltip: '4 harmful races' });
  assert.equal(view!.message, undefined);
  const files = view!.provider.getChildren(cats[0]);
  assert.deepEqual(files.map(label), ['a.c', 'lib/b.c']);
  // A race whose two accesses are in the same file is one row, at its
  // first line; the rows leave out the "Data race on" all begin with.
  const races = view!.provider.getChildren(files[0]);
  assert.deepEqual(races.map(label), [
    "4: x with the write in f (a.c:12, thread 2; this read is thread 1's).",
    "21: x with the write in f (a.c:29, thread 2; this read is thread 1's).",
  ]);
  // Only a race with evidence offers to replay it (package.json's menus
  // match the context value).
  assert.equal(view!.provider.getTreeItem(races[0]).contextValue, 'race');
  const item = view!.provider.getTreeItem(races[1]);
  assert.equal(item.contextValue, 'race.evidence');
  assert.equal(item.command.command, 'vscode.open');
  assert.equal(item.command.arguments[0].toString(), 'file:///w/a.c');
  assert.equal(item.command.arguments[1].selection.start.line, 20);

  // The context menu's commands take the node.
  await state.commands.get('augur.replayEvidence')!(races[1]);
  await state.commands.get('augur.showInterleaving')!(races[0]);
  assert.deepEqual(clients[0].requests.slice(-2), [
    { method: 'workspace/executeCommand', params: { command: 'augur.server.replayEvidence', arguments: ['r5'] } },
    { method: 'workspace/executeCommand', params: { command: 'augur.server.showInterleaving', arguments: ['r2'] } },
  ]);

  state.allDiagnostics = [];
  state.diagnosticsChanged.fire({});
  assert.equal(view!.provider.getChildren().length, 0);
  assert.equal(view!.badge, undefined);
});

test("the races view's context menu offers a race what it has: evidence to replay, a verified fix to apply", () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const pkg = require('../../package.json');
  const menu: { command: string; when: string }[] = pkg.contributes.menus['view/item/context'];
  const offered = (contextValue: string) =>
    menu
      .filter((m) => {
        const re = /viewItem =~ \/(.*)\/$/.exec(m.when);
        assert.ok(re, `a menu entry the test cannot read: ${m.when}`);
        return new RegExp(re[1]).test(contextValue);
      })
      .map((m) => m.command)
      .sort();
  assert.deepEqual(offered('race'), []);
  assert.deepEqual(offered('race.evidence'), ['augur.replayEvidence', 'augur.showInterleaving']);
  assert.deepEqual(offered('race.fixable'), ['augur.applyFix']);
  assert.deepEqual(offered('race.evidence.fixable'), ['augur.applyFix', 'augur.replayEvidence', 'augur.showInterleaving']);
  assert.deepEqual(offered('category'), []);
});

// A page like the one the server writes (analyzer/output/evidence/timeline.go).
const page = `<!DOCTYPE html><html><head><meta charset="utf-8"><style>.lane{}</style></head><body>
<svg><g class="lane"></g><g class="lane"></g><a class="step" href="file:///w/a.c#L12" data-file="/w/a.c" data-line="12"><rect class="racing"/></a></svg>
</body></html>`;

test('the server leaves timelines to the extension, which shows them in a webview whose steps open their lines', async () => {
  const e = new ext.AugurExtension(vscodeMock, context(), factory);
  await e.start();
  const c = clients[0];
  const caps: any = { experimental: { other: 1 } };
  for (const f of c.features) f.fillClientCapabilities(caps);
  assert.deepEqual(caps.experimental, { other: 1, augurTimelineView: true, augurDiffView: true });

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'augur-timeline-'));
  const transcript = path.join(dir, 'r2.html');
  fs.writeFileSync(transcript, page);
  // A code lens or code action runs the server's command through the middleware.
  const res = await c.options.middleware.executeCommand('augur.server.showInterleaving', ['r2'], async () => ({ transcript, shown: false }));
  assert.equal(res.transcript, transcript);
  assert.equal(state.panels.length, 1);
  const panel = state.panels[0];
  assert.equal(panel.viewType, 'augur.timeline');
  assert.equal(panel.options.enableScripts, true);
  const html = panel.webview.html;
  assert.match(html, /<head><meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-([\w-]+)';">/);
  const nonce = /nonce-([\w-]+)/.exec(html)![1];
  assert.ok(html.includes(`<script nonce="${nonce}">`), 'the click script does not carry the nonce');
  assert.ok(html.indexOf('<script') < html.indexOf('</body>'), 'the script is not inside the body');
  assert.equal((html.match(/class="lane"/g) ?? []).length, 2);

  // A click on a step: the page posts its file and line.
  panel.received.fire({ open: '/w/a.c', line: 12 });
  panel.received.fire({ open: 'relative.c', line: 3 });
  panel.received.fire({ open: '/w/a.c', line: 0 });
  await new Promise((r) => setImmediate(r));
  assert.equal(state.shownDocuments.length, 1, 'invalid messages from the page must be ignored');
  assert.equal(state.shownDocuments[0].uri.fsPath, '/w/a.c');
  assert.equal(state.shownDocuments[0].options.selection.start.line, 11);

  // Other server commands pass through untouched; the same panel is reused.
  await c.options.middleware.executeCommand('augur.server.replayEvidence', ['r2'], async () => ({ transcript: '/x.md' }));
  c.answer = { transcript, shown: false };
  await state.commands.get('augur.showInterleaving')!('r2');
  assert.equal(state.panels.length, 1);
  assert.equal(panel.revealed, 2);
  fs.rmSync(dir, { recursive: true });
});

test('the bundle (dist/extension.js, what the .vsix ships) needs nothing but vscode and Node', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const Module = require('node:module');
  const requested: string[] = [];
  const load = Module._load;
  Module._load = function (request: string, ...rest: unknown[]) {
    requested.push(request);
    return load.call(this, request, ...rest);
  };
  let bundle: any;
  try {
    // eslint-disable-next-line @typescript-eslint/no-require-imports
    bundle = require('../../dist/extension.js');
  } finally {
    Module._load = load;
  }
  assert.equal(typeof bundle.activate, 'function');
  assert.equal(typeof bundle.deactivate, 'function');
  const outside = requested.filter((r) => r !== 'vscode' && !Module.isBuiltin(r) && !r.endsWith('dist/extension.js'));
  assert.deepEqual(outside, [], 'the bundle loads modules that the .vsix does not ship');
});

test('the .vsix ships the bundle and no node_modules', () => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const cp = require('node:child_process') as typeof import('node:child_process');
  const root = path.join(__dirname, '..', '..');
  const r = cp.spawnSync('npx', ['--no-install', 'vsce', 'ls', '--no-dependencies'], { cwd: root, encoding: 'utf8' });
  assert.equal(r.status, 0, r.stderr);
  const files = r.stdout.split('\n').filter((l) => l.trim() !== '');
  assert.ok(files.includes('dist/extension.js'), files.join(', '));
  assert.ok(files.includes('schemas/augur.toml.schema.json'), files.join(', '));
  assert.deepEqual(files.filter((f) => f.startsWith('node_modules/') || f.startsWith('out/') || f.startsWith('src/')), []);
  assert.ok(files.length <= 20, `${files.length} files in the .vsix`);
});
