// The VS Code client of `augur lsp`: it starts the server for C and C++
// files, passes the analysis settings, shows the analysis state in the
// status bar, restarts a crashed server a few times, and adds the augur.*
// commands.
import * as vscode from 'vscode';
import {
  CloseAction,
  ErrorAction,
  LanguageClient,
  LanguageClientOptions,
  ServerOptions,
  ShowMessageRequest,
  ShowMessageRequestParams,
  State,
  Trace,
  TransportKind,
  WorkDoneProgress,
  WorkDoneProgressCreateRequest,
} from 'vscode-languageclient/node';

import { raceAt, RaceDiagnostic } from './races';
import { raceIdOfNode, RacesView } from './racesView';
import { timelineCapability, TimelineView } from './timeline';
import { RestartPolicy } from './restarts';
import { analysisSettings, serverCommand, SettingsReader, traceLevel } from './settings';
import { ProgressValue, StatusModel } from './status';

/** Settings an untrusted workspace may not set (package.json lists them too). */
export const restrictedSettings = ['path', 'arguments'];

/** The server's own commands, which the extension's commands call. */
export const serverCommands = {
  replay: 'augur.server.replayEvidence',
  analyzeNow: 'augur.server.analyzeNow',
  timeline: 'augur.server.showInterleaving',
  outputDiff: 'augur.server.showOutputDifference',
  applyFix: 'augur.server.applyFix',
};

/** What the server's evidence commands answer. */
interface EvidenceResult {
  transcript?: string;
  // outputs are an output difference's two outputs, this order's first.
  outputs?: string[];
  shown?: boolean;
  reproduced?: boolean;
  summary?: string;
}

/** The parts of a language client the extension uses (tests fake it). */
export interface Client {
  start(): Promise<void>;
  stop(): Promise<void>;
  readonly state: State;
  onDidChangeState: vscode.Event<{ oldState: State; newState: State }>;
  sendRequest<R>(method: string, params: unknown): Promise<R>;
  onRequest(method: string, handler: (params: any) => unknown): vscode.Disposable;
  onProgress(type: typeof WorkDoneProgress.type, token: string | number, handler: (v: any) => void): vscode.Disposable;
  setTrace(trace: Trace): Promise<void>;
  registerFeature(feature: typeof timelineCapability): void;
}

/** Makes a client; the real one is a LanguageClient over stdio. */
export type ClientFactory = (server: ServerOptions, options: LanguageClientOptions) => Client;

const defaultFactory: ClientFactory = (server, options) =>
  new LanguageClient('augur', 'augur', server, options) as unknown as Client;

/** The extension's state while it is active. */
export class AugurExtension {
  client: Client | undefined;
  readonly status = new StatusModel();
  readonly restarts = new RestartPolicy();
  readonly races: RacesView;
  readonly timeline: TimelineView;
  private item: vscode.StatusBarItem;
  private output: vscode.LogOutputChannel;

  constructor(
    private readonly api: typeof vscode,
    private readonly context: vscode.ExtensionContext,
    private readonly factory: ClientFactory = defaultFactory,
  ) {
    // vscode-languageclient 11 logs through the channel's error/warn/info
    // methods and follows its log level: only a log channel has them.
    this.output = api.window.createOutputChannel('augur', { log: true });
    this.item = api.window.createStatusBarItem(api.StatusBarAlignment.Left, 0);
    this.item.command = 'augur.analyzeNow';
    context.subscriptions.push(this.output, this.item);
    const reg = (name: string, fn: (...args: any[]) => unknown) =>
      context.subscriptions.push(api.commands.registerCommand(name, fn));
    reg('augur.restart', () => this.restart());
    reg('augur.analyzeNow', (uri?: string) => this.analyzeNow(uri));
    reg('augur.replayEvidence', (race?: unknown) => this.replayEvidence(raceIdOfNode(race) ?? (race as string | undefined)));
    reg('augur.showInterleaving', (race?: unknown) => this.showInterleaving(raceIdOfNode(race) ?? (race as string | undefined)));
    reg('augur.applyFix', (race?: unknown) => this.applyFix(raceIdOfNode(race) ?? (race as string | undefined)));
    reg('augur.refreshRaces', () => this.races.refresh());
    this.races = new RacesView(api);
    this.races.register(context);
    this.timeline = new TimelineView(api);
    context.subscriptions.push(
      // Trust granted: the workspace's own settings of the server apply now.
      api.workspace.onDidGrantWorkspaceTrust(() => void this.restart()),
      api.workspace.onDidChangeConfiguration((e) => {
        if (e.affectsConfiguration('augur.path') || e.affectsConfiguration('augur.arguments')) {
          void this.restart();
        } else if (e.affectsConfiguration('augur.trace.server') && this.client) {
          void this.client.setTrace(Trace.fromString(traceLevel(this.reader())));
        }
      }),
    );
    this.render();
  }

  /**
   * Reads the augur section of the settings. In a workspace the user has
   * not trusted, the settings that choose what runs (the server binary and
   * its arguments) come from the user's own settings only: opening a
   * cloned repository must not run a program it names. (VS Code enforces
   * the same through restrictedConfigurations; this does not rely on it.)
   */
  reader(): SettingsReader {
    const cfg = this.api.workspace.getConfiguration('augur');
    const trusted = this.api.workspace.isTrusted !== false;
    return <T>(key: string, fallback: T) => {
      if (!trusted && restrictedSettings.includes(key)) {
        const v = cfg.inspect<T>(key)?.globalValue;
        return (v === undefined ? fallback : v) as T;
      }
      return cfg.get<T>(key, fallback) as T;
    };
  }

  /** Starts the server. */
  async start(): Promise<void> {
    const read = this.reader();
    const cmd = serverCommand(read);
    const server: ServerOptions = { command: cmd.command, args: cmd.args, transport: TransportKind.stdio };
    const options: LanguageClientOptions = {
      documentSelector: [
        { scheme: 'file', language: 'c' },
        { scheme: 'file', language: 'cpp' },
      ],
      initializationOptions: analysisSettings(read),
      synchronize: { configurationSection: 'augur' },
      middleware: {
        // Code lenses and code actions run the server's commands through
        // here: a timeline the server wrote is shown in the webview.
        executeCommand: async (command, args, next) => {
          const res = (await next(command, args)) as EvidenceResult | undefined;
          if (command === serverCommands.timeline) {
            this.showTimeline(res);
          }
          if (command === serverCommands.outputDiff) {
            await this.showOutputDiff(res);
          }
          return res;
        },
      },
      outputChannel: this.output,
      errorHandler: {
        error: () => ({ action: ErrorAction.Continue }),
        closed: () => {
          const d = this.restarts.closed();
          if (!d.restart) {
            this.status.serverStopped(d.message ?? 'stopped');
            this.render();
            void this.api.window.showErrorMessage(d.message ?? 'The augur language server stopped.');
            return { action: CloseAction.DoNotRestart, handled: true };
          }
          return { action: CloseAction.Restart, handled: true };
        },
      },
    };
    const client = this.factory(server, options);
    client.registerFeature(timelineCapability);
    this.client = client;
    this.context.subscriptions.push(
      client.onDidChangeState((e) => {
        if (e.newState === State.Running) {
          this.watchProgress(client);
          this.askInQuickPick(client);
        }
      }),
    );
    try {
      await client.start();
      await client.setTrace(Trace.fromString(traceLevel(read)));
    } catch (err) {
      const why = err instanceof Error ? err.message : String(err);
      this.status.serverStopped(`could not start ${cmd.command}: ${why}`);
      this.render();
      this.output.error(`could not start ${cmd.command} ${cmd.args.join(' ')}: ${why}`);
      void this.api.window.showErrorMessage(startFailure(cmd.command, cmd.args, why));
      return;
    }
    this.watchProgress(client);
    this.askInQuickPick(client);
  }

  /**
   * Asks the server's questions (window/showMessageRequest: which of the
   * races and failures on a line to show) in a quick pick, where each
   * choice reads whole: a notification's buttons cut a race's name after
   * a dozen characters. The language client registers its own handler at
   * each start, so this runs after each start, like watchProgress.
   */
  askInQuickPick(client: Client): void {
    client.onRequest(ShowMessageRequest.method, async (params: ShowMessageRequestParams) => {
      const titles = (params.actions ?? []).map((a) => a.title);
      if (titles.length === 0) {
        void this.api.window.showInformationMessage(params.message);
        return null;
      }
      const picked = await this.api.window.showQuickPick(titles, { placeHolder: params.message });
      return picked === undefined ? null : { title: picked };
    });
  }

  /**
   * Takes over the server's progress reports (window/workDoneProgress/create
   * and $/progress) to show them in the status bar. The language client's
   * own progress feature registers the same request at each start, so
   * this runs after each start.
   */
  watchProgress(client: Client): void {
    client.onRequest(WorkDoneProgressCreateRequest.method, (params: { token: string | number }) => {
      const token = params.token;
      const sub = client.onProgress(WorkDoneProgress.type, token, (value: ProgressValue) => {
        this.status.progress(String(token), value);
        this.render();
        if (value.kind === 'end') {
          sub.dispose();
        }
      });
      return null;
    });
  }

  /** Shows the status model in the status bar item. */
  render(): void {
    const v = this.status.view();
    this.item.text = v.text;
    this.item.tooltip = v.tooltip;
    this.item.show();
  }

  /** Stops and starts the server again ("augur: Restart"). */
  async restart(): Promise<void> {
    this.restarts.reset();
    this.status.serverStopped('');
    this.render();
    const old = this.client;
    this.client = undefined;
    if (old && old.state === State.Running) {
      try {
        await old.stop();
      } catch {
        // It is being replaced anyway.
      }
    }
    await this.start();
  }

  /** Re-analyzes the active file's targets (or every target) at once. */
  async analyzeNow(uri?: string): Promise<void> {
    if (!this.client) {
      return;
    }
    const doc = uri ?? this.api.window.activeTextEditor?.document.uri.toString();
    await this.client.sendRequest('workspace/executeCommand', {
      command: serverCommands.analyzeNow,
      arguments: doc ? [doc] : [],
    });
  }

  /**
   * Replays a race's evidence: the race given (from a code action or the
   * races view), or the one at the cursor. The server writes the
   * transcript and asks VS Code to open it.
   */
  async replayEvidence(raceId?: string): Promise<void> {
    await this.evidence(serverCommands.replay, raceId, 'replay');
  }

  /**
   * Shows a race's interleaving timeline (the race given, or the one at
   * the cursor) in the webview.
   */
  async showInterleaving(raceId?: string): Promise<void> {
    const res = await this.evidence(serverCommands.timeline, raceId, 'show the interleaving of');
    this.showTimeline(res);
  }

  /**
   * Applies a race's verified fix (the race given, from the Races view,
   * or the one at the cursor): the server sends the edit back to apply.
   */
  async applyFix(raceId?: string): Promise<void> {
    const res = await this.runOnRace<{ applied?: boolean; title?: string; why?: string }>(serverCommands.applyFix, raceId, 'fix');
    if (!res) {
      return;
    }
    if (res.applied) {
      void this.api.window.showInformationMessage(`augur: applied the verified fix: ${res.title}. Save to analyze it again.`);
    } else {
      void this.api.window.showWarningMessage(`augur: ${res.why ?? 'the fix was not applied'}`);
    }
  }

  /** Runs one of the server's evidence commands on a race. */
  private async evidence(command: string, raceId: string | undefined, verb: string): Promise<EvidenceResult | undefined> {
    return this.runOnRace<EvidenceResult>(command, raceId, verb);
  }

  /** Runs a server command on a race: the one given, or the one at the cursor. */
  private async runOnRace<T>(command: string, raceId: string | undefined, verb: string): Promise<T | undefined> {
    if (!this.client) {
      return undefined;
    }
    let id = raceId;
    const editor = this.api.window.activeTextEditor;
    if (!id && editor) {
      const diags = this.api.languages.getDiagnostics(editor.document.uri) as unknown as RaceDiagnostic[];
      id = raceAt(diags, editor.selection.active);
    }
    if (!id) {
      void this.api.window.showInformationMessage(`augur: there is no race at the cursor to ${verb}.`);
      return undefined;
    }
    try {
      return await this.client.sendRequest<T>('workspace/executeCommand', { command, arguments: [id] });
    } catch (err) {
      void this.api.window.showErrorMessage(`augur: ${err instanceof Error ? err.message : String(err)}`);
      return undefined;
    }
  }

  /**
   * Opens the two outputs of an output-differs race in a diff editor: the
   * lines that differ side by side, in context, as any diff.
   */
  async showOutputDiff(res: EvidenceResult | undefined): Promise<void> {
    const [mine, theirs] = res?.outputs ?? [];
    if (!mine || !theirs) {
      return;
    }
    const title = `augur: ${whatOf(mine)}, ${orderOf(mine)} order ↔ ${orderOf(theirs)} order`;
    await this.api.commands.executeCommand('vscode.diff', this.api.Uri.file(mine), this.api.Uri.file(theirs), title);
  }

  /** Opens a timeline the server wrote in the webview. */
  showTimeline(res: EvidenceResult | undefined): void {
    if (!res?.transcript || !res.transcript.endsWith('.html')) {
      return;
    }
    try {
      this.timeline.show(res.transcript, 'augur: interleaving');
    } catch (err) {
      void this.api.window.showErrorMessage(`augur: cannot show ${res.transcript}: ${err instanceof Error ? err.message : String(err)}`);
    }
  }

  async dispose(): Promise<void> {
    if (this.client && this.client.state === State.Running) {
      await this.client.stop();
    }
  }
}

/**
 * The message for a server that did not start. Only a binary that could not
 * be run is fixed by augur.path; anything else is the server's or the
 * client's own failure, and the output channel has the details.
 */
export function startFailure(command: string, args: string[], why: string): string {
  const what = `augur: could not start the language server (${[command, ...args].join(' ')}): ${why}.`;
  if (/\b(ENOENT|EACCES|ENOEXEC)\b/.test(why)) {
    return `${what} Set augur.path to the augur binary (a path, or a name on PATH).`;
  }
  return `${what} See the augur output channel for details; "augur: Restart the language server" tries again.`;
}

let active: AugurExtension | undefined;

export async function activate(context: vscode.ExtensionContext): Promise<AugurExtension> {
  active = new AugurExtension(vscode, context);
  await active.start();
  return active;
}

export async function deactivate(): Promise<void> {
  await active?.dispose();
  active = undefined;
}

/**
 * The server names each side of an output difference NAME-ORDER.txt, or
 * NAME-ORDER-FILE.txt when the two orders printed the same and differ in
 * a file the program wrote.
 */
const diffSide = /-(primary|alternate)(?:-(.+))?\.txt$/;

/** orderOf names the order a side of an output difference holds. */
function orderOf(file: string): string {
  return diffSide.exec(file)?.[1] ?? 'one';
}

/** whatOf names what a side of an output difference holds: the output, or the program's file. */
function whatOf(file: string): string {
  return diffSide.exec(file)?.[2] ?? 'output';
}
