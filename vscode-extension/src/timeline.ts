// The interleaving timeline in a webview. The server writes a race's
// replay as an HTML page (one lane per thread, the racing accesses
// marked, the other order's outcome at the end); the extension declares
// the experimental capability augurTimelineView so the server leaves
// showing it to the extension, which opens it in a webview panel beside
// the code. Clicking a step opens its source line.
import * as fs from 'node:fs';
import * as vscode from 'vscode';

/**
 * The client capabilities that make the server leave timelines to us, and
 * output differences (the two orders' outputs, as two files: a diff).
 */
export const timelineCapability = {
  fillClientCapabilities(caps: { experimental?: unknown }): void {
    caps.experimental = { ...((caps.experimental as object) ?? {}), augurTimelineView: true, augurDiffView: true };
  },
  initialize(): void {},
  getState(): { kind: 'static' } {
    return { kind: 'static' };
  },
  clear(): void {},
};

/** A message from the page: open a source line. */
export interface OpenMessage {
  open: string;
  line: number;
}

/** Checks a message from the page before acting on it. */
export function openRequest(msg: unknown): OpenMessage | undefined {
  const m = msg as Partial<OpenMessage> | undefined;
  if (!m || typeof m.open !== 'string' || !m.open.startsWith('/') || typeof m.line !== 'number' || !Number.isInteger(m.line) || m.line < 1) {
    return undefined;
  }
  return { open: m.open, line: m.line };
}

/**
 * Makes the server's page fit a webview: a content security policy that
 * allows its inline style and only our script (by nonce), and the script
 * that turns clicks on steps (their data-file and data-line) into
 * messages to the extension.
 */
export function webviewHtml(page: string, nonce: string): string {
  const csp = `<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; img-src data:; script-src 'nonce-${nonce}';">`;
  const script = `<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.addEventListener('click', (e) => {
  const a = e.target.closest('[data-file]');
  if (!a) return;
  e.preventDefault();
  vscode.postMessage({ open: a.getAttribute('data-file'), line: Number(a.getAttribute('data-line')) });
});
</script>`;
  const head = /<head[^>]*>/i.exec(page);
  const withCsp = head ? page.slice(0, head.index + head[0].length) + csp + page.slice(head.index + head[0].length) : csp + page;
  const body = withCsp.lastIndexOf('</body>');
  return body >= 0 ? withCsp.slice(0, body) + script + withCsp.slice(body) : withCsp + script;
}

/** Shows timelines, one panel reused for each. */
export class TimelineView {
  private panel: vscode.WebviewPanel | undefined;

  constructor(private readonly api: typeof vscode) {}

  /** Opens the page at path (the server's result's transcript). */
  show(path: string, title: string): void {
    const page = fs.readFileSync(path, 'utf8');
    const api = this.api;
    if (!this.panel) {
      this.panel = api.window.createWebviewPanel('augur.timeline', title, api.ViewColumn.Beside, {
        enableScripts: true,
        localResourceRoots: [],
      });
      this.panel.onDidDispose(() => (this.panel = undefined));
      this.panel.webview.onDidReceiveMessage((msg: unknown) => void this.open(msg));
    }
    this.panel.title = title;
    this.panel.webview.html = webviewHtml(page, nonce());
    this.panel.reveal(api.ViewColumn.Beside, true);
  }

  /** Opens the source line a step of the page links. */
  async open(msg: unknown): Promise<void> {
    const req = openRequest(msg);
    if (!req) {
      return;
    }
    const api = this.api;
    const at = new api.Position(req.line - 1, 0);
    await api.window.showTextDocument(api.Uri.file(req.open), {
      viewColumn: api.ViewColumn.One,
      selection: new api.Range(at, at),
    });
  }
}

function nonce(): string {
  return require('node:crypto').randomBytes(16).toString('base64url');
}
