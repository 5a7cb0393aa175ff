// The status bar shows what the server is doing, from its work-done
// progress reports: one entry per analysis token, the most recent shown.

export interface ProgressValue {
  kind: 'begin' | 'report' | 'end';
  title?: string;
  message?: string;
  percentage?: number;
}

export interface StatusView {
  text: string;
  tooltip: string;
  busy: boolean;
}

/**
 * How an analysis ended, from its progress's last message (the server's
 * lsp/runner.go writes them): incomplete when augur could not follow the
 * whole program (a budget ran out, a call it cannot follow), failed when
 * it did not run (the program does not compile, augur failed).
 */
export type Ending = 'done' | 'incomplete' | 'failed';

export function endingOf(message: string): Ending {
  if (/^(incomplete|stopped)\b/.test(message)) return 'incomplete';
  if (/^(failed|does not compile)\b/.test(message)) return 'failed';
  return 'done';
}

/**
 * The files an analysis took from the workspace to complete its program,
 * from its last message ("...; with tally.c (defines tally_start, used by
 * main.c), log.c (defines ...)", as lsp/runner.go's sourcesTaken writes
 * it), in order; none when it took none.
 */
export function takenFiles(message: string): string[] {
  const at = message.indexOf('; with ');
  if (at < 0) return [];
  return [...message.slice(at).matchAll(/(?:; with |\), )([^\s(),]+) \(defines /g)].map((m) => m[1]);
}

/**
 * " · main.c with tally.c, log.c": what the status bar adds of the last
 * analysis when it took files from the workspace (whatever the state it
 * shows, which is the worst of all targets').
 */
function withTaken(title: string, files: string[]): string {
  if (files.length === 0) return '';
  const shown = files.length > 3 ? [...files.slice(0, 2), `${files.length - 2} more`] : files;
  return ` · ${title.replace(/^augur: /, '').split('/').pop()} with ${shown.join(', ')}`;
}

export class StatusModel {
  private active = new Map<string, { title: string; message: string; percentage?: number }>();
  private lastResult = '';
  // How each target's last analysis ended, by progress title: the status
  // is the worst of them, so an incomplete analysis of one file is not
  // hidden by another file's complete one that ended after it.
  private endings = new Map<string, { result: string; ending: Ending }>();
  // The files the last analysis took from the workspace, named in the
  // status bar's text (the tooltip says why each was taken).
  private lastTaken = '';
  private stopped = '';

  /** Applies one $/progress value of a token. */
  progress(token: string, value: ProgressValue): void {
    switch (value.kind) {
      case 'begin':
        this.active.set(token, { title: value.title ?? 'augur', message: value.message ?? '', percentage: value.percentage });
        break;
      case 'report': {
        const a = this.active.get(token);
        if (a) {
          if (value.message !== undefined) a.message = value.message;
          if (value.percentage !== undefined) a.percentage = value.percentage;
        }
        break;
      }
      case 'end': {
        const a = this.active.get(token);
        this.active.delete(token);
        if (a && value.message && value.message !== 'canceled') {
          this.lastResult = `${a.title.replace(/^augur: /, '')}: ${value.message}`;
          this.endings.set(a.title, { result: this.lastResult, ending: endingOf(value.message) });
          this.lastTaken = withTaken(a.title, takenFiles(value.message));
        }
        break;
      }
    }
  }

  /** The server stopped for good (or was restarted: reason ''). */
  serverStopped(reason: string): void {
    this.stopped = reason;
    this.active.clear();
  }

  view(): StatusView {
    if (this.stopped) {
      return { text: '$(error) augur: stopped', tooltip: this.stopped, busy: false };
    }
    const running = [...this.active.values()];
    if (running.length > 0) {
      const a = running[running.length - 1];
      const pct = a.percentage !== undefined ? ` ${a.percentage}%` : '';
      const more = running.length > 1 ? ` (+${running.length - 1} more)` : '';
      return {
        text: `$(sync~spin) augur: ${a.message || 'analyzing'}${pct}${more}`,
        tooltip: running.map((r) => `${r.title}: ${r.message}`).join('\n'),
        busy: true,
      };
    }
    if (this.lastResult) {
      // Never a plain check mark while an analysis did not see it all.
      const all = [...this.endings.values()];
      const worst = all.some((e) => e.ending === 'failed') ? 'failed' : all.some((e) => e.ending === 'incomplete') ? 'incomplete' : 'done';
      const text = { done: '$(check) augur', incomplete: '$(warning) augur: incomplete', failed: '$(error) augur: failed' }[worst] + this.lastTaken;
      const short = all.filter((e) => e.ending !== 'done').map((e) => e.result);
      const tooltip = [`Last analysis: ${this.lastResult}`, ...short.filter((r) => r !== this.lastResult)].join('\n');
      return { text, tooltip, busy: false };
    }
    return { text: '$(check) augur', tooltip: 'augur: idle', busy: false };
  }
}
