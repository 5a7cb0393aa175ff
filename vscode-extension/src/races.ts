// Finding the race under the cursor among a document's diagnostics.

export interface Pos {
  line: number;
  character: number;
}

export interface RaceDiagnostic {
  source?: string;
  range: { start: Pos; end: Pos };
  data?: unknown;
}

/** The race id a diagnostic of augur carries, if any. */
export function raceIdOf(d: RaceDiagnostic): string | undefined {
  if (d.source !== 'augur' || typeof d.data !== 'object' || d.data === null) {
    return undefined;
  }
  const id = (d.data as { raceId?: unknown }).raceId;
  return typeof id === 'string' ? id : undefined;
}

/**
 * The race at a position: a race diagnostic whose range holds it, else
 * the first one on its line.
 */
export function raceAt(diags: readonly RaceDiagnostic[], at: Pos): string | undefined {
  let onLine: string | undefined;
  for (const d of diags) {
    const id = raceIdOf(d);
    if (!id || d.range.start.line !== at.line) {
      continue;
    }
    if (at.character >= d.range.start.character && at.character <= d.range.end.character) {
      return id;
    }
    onLine ??= id;
  }
  return onLine;
}
