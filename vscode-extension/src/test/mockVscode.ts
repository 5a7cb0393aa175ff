// A stand-in for the `vscode` module, enough for the extension and the
// language client library to load and for the tests to watch what the
// extension does. VS Code itself cannot run here.
import Module = require('module');

type Listener<T> = (e: T) => unknown;

export class EventEmitter<T> {
  private listeners: Listener<T>[] = [];
  event = (l: Listener<T>) => {
    this.listeners.push(l);
    return { dispose: () => (this.listeners = this.listeners.filter((x) => x !== l)) };
  };
  fire(e: T): void {
    for (const l of [...this.listeners]) l(e);
  }
  dispose(): void {
    this.listeners = [];
  }
}

export class Disposable {
  constructor(private fn: () => void = () => {}) {}
  static from(...ds: { dispose(): unknown }[]): Disposable {
    return new Disposable(() => ds.forEach((d) => d.dispose()));
  }
  dispose(): void {
    this.fn();
  }
}

/** A webview panel as the tests see it. */
export class MockPanel {
  readonly received = new EventEmitter<unknown>();
  readonly disposed = new EventEmitter<void>();
  revealed = 0;
  webview = {
    html: '',
    onDidReceiveMessage: (l: Listener<unknown>) => this.received.event(l),
  };
  constructor(public viewType: string, public title: string, public options: any) {}
  onDidDispose(l: Listener<void>) {
    return this.disposed.event(l);
  }
  reveal(): void {
    this.revealed++;
  }
  dispose(): void {
    this.disposed.fire();
  }
}

class TreeItem {
  description?: string;
  tooltip?: string;
  contextValue?: string;
  command?: any;
  resourceUri?: any;
  constructor(public label: string, public collapsibleState: number) {}
}

class Position {
  constructor(public line: number, public character: number) {}
}

class Range {
  start: Position;
  end: Position;
  constructor(a: any, b: any, c?: number, d?: number) {
    this.start = typeof a === 'number' ? new Position(a, b) : a;
    this.end = typeof a === 'number' ? new Position(c!, d!) : b;
  }
}

/** Everything the tests can inspect or set. */
export const state = {
  commands: new Map<string, (...args: any[]) => unknown>(),
  settings: {} as Record<string, unknown>,
  // Settings written in the workspace (.vscode/settings.json): they win
  // over the user's, but not where an untrusted workspace may not set them.
  workspaceSettings: {} as Record<string, unknown>,
  trusted: true,
  trustGranted: new EventEmitter<void>(),
  errors: [] as string[],
  infos: [] as string[],
  // quickPicks are the quick picks shown; pick is what the user chooses.
  quickPicks: [] as { items: string[]; placeHolder?: string }[],
  pick: undefined as string | undefined,
  statusItems: [] as { text: string; tooltip: string; command?: string; shown: boolean }[],
  outputChannels: [] as { name: string; log: boolean }[],
  diagnostics: [] as unknown[],
  // Every file's diagnostics, as getDiagnostics() with no argument gives them.
  allDiagnostics: [] as [unknown, unknown[]][],
  diagnosticsChanged: new EventEmitter<unknown>(),
  treeViews: [] as { id: string; provider: any; badge?: { value: number; tooltip: string }; message?: string }[],
  panels: [] as MockPanel[],
  shownDocuments: [] as { uri: any; options: any }[],
  activeEditor: undefined as unknown,
  configListeners: new EventEmitter<{ affectsConfiguration(s: string): boolean }>(),
  reset(): void {
    this.commands.clear();
    this.settings = {};
    this.workspaceSettings = {};
    this.trusted = true;
    this.trustGranted = new EventEmitter();
    this.errors = [];
    this.infos = [];
    this.quickPicks = [];
    this.pick = undefined;
    this.statusItems = [];
    this.outputChannels = [];
    this.diagnostics = [];
    this.allDiagnostics = [];
    this.diagnosticsChanged = new EventEmitter();
    this.treeViews = [];
    this.panels = [];
    this.shownDocuments = [];
    this.activeEditor = undefined;
    this.configListeners = new EventEmitter();
  },
};

const handler: ProxyHandler<any> = {
  // Enums and classes the library touches at load time but the tests do
  // not care about resolve to inert objects.
  get(target, prop) {
    if (prop in target) return target[prop];
    if (typeof prop === 'symbol' || prop === 'then') return undefined;
    return new Proxy(class {}, handler);
  },
};

const api: any = {
  // Makes TypeScript's __importStar hand out the proxy itself, so every
  // name the library reads goes through the handler above.
  __esModule: true,
  EventEmitter,
  Disposable,
  StatusBarAlignment: { Left: 1, Right: 2 },
  TreeItem,
  TreeItemCollapsibleState: { None: 0, Collapsed: 1, Expanded: 2 },
  Position,
  Range,
  ViewColumn: { Active: -1, Beside: -2, One: 1, Two: 2 },
  Uri: {
    parse: (s: string) => ({ toString: () => s, fsPath: s.replace(/^file:\/\//, ''), scheme: 'file' }),
    file: (p: string) => ({ toString: () => 'file://' + p, fsPath: p, scheme: 'file' }),
  },
  window: {
    // As in VS Code: a plain channel has no log methods; { log: true } makes
    // a LogOutputChannel, which vscode-languageclient needs for its output.
    createOutputChannel: (name: string, options?: { log?: boolean } | string) => {
      const plain = { name, append() {}, appendLine() {}, replace() {}, clear() {}, show() {}, hide() {}, dispose() {} };
      if (typeof options !== 'object' || !options.log) {
        state.outputChannels.push({ name, log: false });
        return plain;
      }
      state.outputChannels.push({ name, log: true });
      return { ...plain, logLevel: 2, onDidChangeLogLevel: () => ({ dispose() {} }), trace() {}, debug() {}, info() {}, warn() {}, error() {} };
    },
    createStatusBarItem: () => {
      const item = { text: '', tooltip: '', command: undefined as string | undefined, shown: false, show() { this.shown = true; }, hide() {}, dispose() {} };
      state.statusItems.push(item);
      return item;
    },
    showErrorMessage: async (m: string) => {
      state.errors.push(m);
      return undefined;
    },
    showInformationMessage: async (m: string) => {
      state.infos.push(m);
      return undefined;
    },
    showQuickPick: async (items: string[], options?: { placeHolder?: string }) => {
      state.quickPicks.push({ items, placeHolder: options?.placeHolder });
      return state.pick;
    },
    get activeTextEditor() {
      return state.activeEditor;
    },
    createTreeView: (id: string, options: { treeDataProvider: any }) => {
      const view = { id, provider: options.treeDataProvider, badge: undefined, message: undefined, dispose() {} };
      state.treeViews.push(view);
      return view;
    },
    createWebviewPanel: (viewType: string, title: string, _column: number, options: any) => {
      const panel = new MockPanel(viewType, title, options);
      state.panels.push(panel);
      return panel;
    },
    showTextDocument: async (uri: any, options: any) => {
      state.shownDocuments.push({ uri, options });
      return undefined;
    },
  },
  commands: {
    registerCommand: (name: string, fn: (...args: any[]) => unknown) => {
      if (state.commands.has(name)) throw new Error(`command ${name} already exists`);
      state.commands.set(name, fn);
      return new Disposable(() => state.commands.delete(name));
    },
    executeCommand: async (name: string, ...args: unknown[]) => state.commands.get(name)?.(...args),
  },
  workspace: {
    getConfiguration: (section: string) => ({
      get: <T>(key: string, fallback: T) => {
        const full = `${section}.${key}`;
        if (full in state.workspaceSettings) return state.workspaceSettings[full] as T;
        return (full in state.settings ? state.settings[full] : fallback) as T;
      },
      inspect: (key: string) => {
        const full = `${section}.${key}`;
        return { key: full, globalValue: state.settings[full], workspaceValue: state.workspaceSettings[full] };
      },
    }),
    get isTrusted() {
      return state.trusted;
    },
    onDidGrantWorkspaceTrust: (l: Listener<void>) => state.trustGranted.event(l),
    onDidChangeConfiguration: (l: Listener<{ affectsConfiguration(s: string): boolean }>) => state.configListeners.event(l),
    asRelativePath: (uri: any) => String(uri.fsPath ?? uri).replace(/^\/w\//, ''),
  },
  languages: {
    getDiagnostics: (uri?: unknown) => (uri === undefined ? state.allDiagnostics : state.diagnostics),
    onDidChangeDiagnostics: (l: Listener<unknown>) => state.diagnosticsChanged.event(l),
  },
};

/** Makes require('vscode') return the stand-in. */
export function install(): void {
  const m = Module as any;
  const load = m._load;
  m._load = function (request: string, ...rest: unknown[]) {
    if (request === 'vscode') return vscodeMock;
    return load.call(this, request, ...rest);
  };
}

export const vscodeMock = new Proxy(api, handler);
