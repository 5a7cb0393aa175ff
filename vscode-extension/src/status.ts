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

export class StatusModel {
  private active = new Map<string, { title: string; message: string; percentage?: number }>();
  private lastResult = '';
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
      return { text: `$(check) augur`, tooltip: `Last analysis: ${this.lastResult}`, busy: false };
    }
    return { text: '$(check) augur', tooltip: 'augur: idle', busy: false };
  }
}
