// What the extension reads from the `augur.*` settings, kept apart from the
// VS Code API so it can be tested with a plain object.

/** Reads one setting of the `augur` section, with its default. */
export type SettingsReader = <T>(key: string, fallback: T) => T;

/** How the language server process is started. */
export interface ServerCommand {
  command: string;
  args: string[];
}

/** The command line of the server: `augur lsp` plus the user's extra arguments. */
export function serverCommand(read: SettingsReader): ServerCommand {
  const path = read<string>('path', 'augur').trim() || 'augur';
  const extra = read<unknown>('arguments', []);
  const args = Array.isArray(extra) ? extra.filter((a): a is string => typeof a === 'string') : [];
  return { command: path, args: ['lsp', ...args] };
}

/**
 * The analysis settings sent to the server as initializationOptions (and,
 * by the language client, with every configuration change). Settings of
 * the extension itself (path, arguments, trace) stay here.
 */
export const analysisKeys = [
  'mp', 'ma', 'memoryModel', 'undefined', 'symbolicArgs', 'schedules', 'directed', 'history', 'maxInstructions',
  'timeout', 'exploreTime', 'exploreInstructions', 'maxMemory', 'debounce', 'seed', 'preemptAccesses', 'symbolicStdin', 'symbolicInputs', 'symbolicFiles', 'searcher',
  'maxPaths', 'detectOnly', 'classifier', 'include', 'define', 'flags', 'compileCommandsDir', 'tsanReport', 'suggestFixes',
] as const;

export function analysisSettings(read: SettingsReader): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of analysisKeys) {
    const value = read<unknown>(key, undefined);
    if (value !== undefined && value !== null) {
      out[key] = value;
    }
  }
  return out;
}

/** The trace level of the client's log of the protocol. */
export function traceLevel(read: SettingsReader): 'off' | 'messages' | 'verbose' {
  const t = read<string>('trace.server', 'off');
  return t === 'messages' || t === 'verbose' ? t : 'off';
}
