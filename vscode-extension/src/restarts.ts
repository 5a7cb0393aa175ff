// When the server process dies, the extension restarts it a few times;
// past that it stops and says why, instead of restarting a crashing
// server for ever.

/** What to do after the server's connection closed. */
export interface CloseDecision {
  restart: boolean;
  /** Shown to the user when the extension gives up. */
  message?: string;
}

export class RestartPolicy {
  private crashes: number[] = [];

  /**
   * @param max restarts allowed within `windowMs`
   * @param windowMs the window over which crashes are counted
   * @param now the clock (tests pass their own)
   */
  constructor(
    private readonly max = 4,
    private readonly windowMs = 3 * 60 * 1000,
    private readonly now: () => number = Date.now,
  ) {}

  /** Called each time the connection to the server closes unexpectedly. */
  closed(lastError?: string): CloseDecision {
    const t = this.now();
    this.crashes = this.crashes.filter((c) => t - c < this.windowMs);
    this.crashes.push(t);
    if (this.crashes.length <= this.max) {
      return { restart: true };
    }
    const why = lastError ? ` The last error was: ${lastError}` : '';
    return {
      restart: false,
      message:
        `The augur language server stopped ${this.crashes.length} times in the last ` +
        `${Math.round(this.windowMs / 60000)} minutes, so it will not be restarted.${why} ` +
        'See the "augur" output for its log, then run "augur: Restart the language server".',
    };
  }

  /** Forgets past crashes (after a restart the user asked for). */
  reset(): void {
    this.crashes = [];
  }
}
