// Tests of the extension's wiring, with a stand-in `vscode` module and a
// fake language client.
import { test, beforeEach } from 'node:test';
import * as assert from 'node:assert/strict';

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
  constructor(public server: any, public options: any) {}
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
    return null;
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
  assert.deepEqual([...state.commands.keys()].sort(), ['augur.analyzeNow', 'augur.replayEvidence', 'augur.restart']);
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
