// The editor flows from Node, through vscode-jsonrpc (the library under
// vscode-languageclient), against the real `augur lsp` binary.
import { test } from 'node:test';
import * as assert from 'node:assert/strict';
import * as cp from 'node:child_process';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import {
  createMessageConnection,
  MessageConnection,
  ProgressType,
  StreamMessageReader,
  StreamMessageWriter,
} from 'vscode-jsonrpc/node';

const repo = path.resolve(__dirname, '..', '..', '..');
const augur = process.env.AUGUR_BIN ?? path.join(repo, 'bin', 'augur');

interface Diag {
  range: { start: { line: number; character: number }; end: { line: number; character: number } };
  severity: number;
  code: string;
  source: string;
  message: string;
  data?: { raceId: string };
}

class Session {
  conn: MessageConnection;
  proc: cp.ChildProcess;
  diags = new Map<string, Diag[]>();
  ends: string[] = [];
  shown: string[] = [];
  private waiters: (() => void)[] = [];

  constructor(readonly root: string, readonly cache: string) {
    if (!fs.existsSync(augur)) {
      throw new Error(`${augur} does not exist: run make build (or set AUGUR_BIN)`);
    }
    this.proc = cp.spawn(augur, ['lsp'], { env: { ...process.env, AUGUR_CACHE_DIR: cache }, stdio: ['pipe', 'pipe', 'pipe'] });
    this.conn = createMessageConnection(new StreamMessageReader(this.proc.stdout!), new StreamMessageWriter(this.proc.stdin!));
    this.conn.onNotification('textDocument/publishDiagnostics', (p: { uri: string; diagnostics: Diag[] }) => {
      this.diags.set(p.uri, p.diagnostics);
      this.wake();
    });
    this.conn.onRequest('window/workDoneProgress/create', (p: { token: string }) => {
      this.conn.onProgress(new ProgressType<{ kind: string; message?: string }>(), p.token, (v) => {
        if (v.kind === 'end') {
          this.ends.push(v.message ?? '');
          this.wake();
        }
      });
      return null;
    });
    this.conn.onRequest('window/showDocument', (p: { uri: string }) => {
      this.shown.push(p.uri);
      return { success: true };
    });
    this.conn.onNotification('window/logMessage', () => {});
    this.conn.listen();
  }

  private wake(): void {
    const ws = this.waiters;
    this.waiters = [];
    ws.forEach((w) => w());
  }

  /** Waits until cond holds; the limit only catches a server that never answers. */
  async until(what: string, cond: () => boolean, limitMs = 120_000): Promise<void> {
    const deadline = Date.now() + limitMs;
    while (!cond()) {
      if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
      await new Promise<void>((r) => {
        this.waiters.push(r);
        setTimeout(r, 500);
      });
    }
  }

  uri(name: string): string {
    return 'file://' + path.join(this.root, name);
  }
}

function workspace(...files: string[]): { root: string; cache: string } {
  const root = fs.realpathSync(fs.mkdtempSync(path.join(os.tmpdir(), 'augur-node-')));
  const cache = fs.mkdtempSync(path.join(os.tmpdir(), 'augur-node-cache-'));
  for (const f of files) {
    fs.copyFileSync(path.join(repo, 'testdata', 'lsp', f), path.join(root, f));
  }
  return { root, cache };
}

test('open, classify, hover, code actions, replay and shutdown through vscode-jsonrpc', async () => {
  const { root, cache } = workspace('account.c');
  const s = new Session(root, cache);
  try {
    const init: any = await s.conn.sendRequest('initialize', {
      processId: process.pid,
      rootUri: 'file://' + root,
      capabilities: { window: { workDoneProgress: true, showDocument: { support: true } } },
      initializationOptions: { augur: { mp: 5, ma: 2, memoryModel: 'sc' } },
    });
    assert.equal(init.serverInfo.name, 'augur');
    assert.deepEqual(init.capabilities.executeCommandProvider.commands.slice().sort(), [
      'augur.server.analyzeNow',
      'augur.server.applyFix',
      'augur.server.ignoreRace',
      'augur.server.replayEvidence',
      'augur.server.showInterleaving',
      'augur.server.showOutputDifference',
    ]);
    await s.conn.sendNotification('initialized', {});
    const uri = s.uri('account.c');
    const text = fs.readFileSync(path.join(root, 'account.c'), 'utf8');
    await s.conn.sendNotification('textDocument/didOpen', { textDocument: { uri, languageId: 'c', version: 1, text } });
    await s.until('the analysis to end', () => s.ends.length >= 1);
    const races = (s.diags.get(uri) ?? []).filter((d) => d.data?.raceId);
    const codes = [...new Set(races.map((d) => d.code))].sort();
    assert.deepEqual(codes, ['k-witness-harmless', 'output-differs', 'spec-violated']);
    // balance's and audited's races, and three on receipt: its check and
    // its free against the other teller's clearing, and the two clearings.
    assert.match(s.ends[0], /5 races/);

    // Hover on the free race.
    const lines = text.split('\n');
    const line = lines.findIndex((l) => l.includes('receipt = NULL;'));
    const hover: any = await s.conn.sendRequest('textDocument/hover', {
      textDocument: { uri },
      position: { line, character: 3 },
    });
    assert.match(hover.contents.value, /spec-violated/);
    assert.match(hover.contents.value, /\*\*What goes wrong:\*\* If .* runs first, the program crashes/);
    assert.match(hover.contents.value, /\*\*Order:\*\* thread/);

    // Code actions, then the replay command; the server asks to show the transcript.
    const actions: any[] = await s.conn.sendRequest('textDocument/codeAction', {
      textDocument: { uri },
      range: { start: { line, character: 0 }, end: { line, character: 0 } },
      context: { diagnostics: [] },
    });
    const replay = actions.find((a) => a.title.startsWith('Replay evidence'));
    assert.ok(replay, `no replay action among ${actions.map((a) => a.title).join(', ')}`);
    const res: any = await s.conn.sendRequest('workspace/executeCommand', replay.command);
    assert.equal(res.reproduced, true);
    assert.ok(res.transcript.startsWith(cache), `transcript ${res.transcript} is not in the cache directory`);
    assert.deepEqual(s.shown, ['file://' + res.transcript]);

    // A comment-only save reuses the results.
    const edited = '// a comment\n' + text;
    fs.writeFileSync(path.join(root, 'account.c'), edited);
    await s.conn.sendNotification('textDocument/didChange', {
      textDocument: { uri, version: 2 },
      contentChanges: [{ text: edited }],
    });
    await s.conn.sendNotification('textDocument/didSave', { textDocument: { uri } });
    await s.until('the second analysis', () => s.ends.length >= 2);
    assert.match(s.ends[1], /results reused/);
    const moved = (s.diags.get(uri) ?? []).filter((d) => d.data?.raceId);
    assert.equal(Math.min(...moved.map((d) => d.range.start.line)), Math.min(...races.map((d) => d.range.start.line)) + 1);

    await s.conn.sendRequest('shutdown');
    const exited = new Promise<number | null>((r) => s.proc.on('exit', (code) => r(code)));
    await s.conn.sendNotification('exit');
    assert.equal(await exited, 0);
  } finally {
    s.conn.dispose();
    s.proc.kill();
    fs.rmSync(root, { recursive: true, force: true });
    fs.rmSync(cache, { recursive: true, force: true });
  }
});
