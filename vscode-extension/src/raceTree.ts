// The races view's model: the race diagnostics of every file, grouped by
// category (most severe first) and then by file, with counts. It is
// computed from the diagnostics the language client holds, so the view
// follows them as they are pushed or pulled. No VS Code types here: the
// view (racesView.ts) renders it.

import { Pos } from './races';

/** A race diagnostic as the view needs it. */
export interface RaceEntry {
  uri: string;
  /** The file's path relative to the workspace, for labels. */
  label: string;
  line: number;
  character: number;
  raceId: string;
  category: string;
  message: string;
  /** The title of the race's verified fix, when it has one. */
  fix?: string;
  /** Whether the race has evidence to replay (harmful races do). */
  evidence: boolean;
}

export interface FileGroup {
  uri: string;
  label: string;
  races: RaceEntry[];
}

export interface CategoryGroup {
  category: string;
  /** Distinct races in the category (a race has up to two accesses). */
  count: number;
  files: FileGroup[];
}

/** The categories in the order the view lists them: most severe first. */
export const categoryOrder = [
  'spec-violated',
  'output-differs',
  'unclassified',
  'classifying…',
  'single-ordering',
  'k-witness-harmless',
];

/** What each category means, in a few words (the view's descriptions). */
export const categoryMeaning: Record<string, string> = {
  'spec-violated': 'an order makes the program fail',
  'output-differs': 'the two orders print different output',
  unclassified: 'not classified',
  'classifying…': 'being classified',
  'single-ordering': 'only one order is possible',
  'k-witness-harmless': 'no harm seen',
};

/** A diagnostic as the language client hands it out. */
export interface ClientDiagnostic {
  source?: string;
  range: { start: Pos };
  message: string;
  data?: unknown;
}

/**
 * The race entry of a diagnostic, or undefined for any other diagnostic.
 * The category comes from the diagnostic's data: its code is an object
 * ({value, target}) once the server links it to documentation.
 */
export function raceEntry(uri: string, label: string, d: ClientDiagnostic): RaceEntry | undefined {
  if (d.source !== 'augur' || typeof d.data !== 'object' || d.data === null) {
    return undefined;
  }
  const data = d.data as { raceId?: unknown; category?: unknown; fix?: unknown; evidence?: unknown };
  if (typeof data.raceId !== 'string' || typeof data.category !== 'string') {
    return undefined;
  }
  return {
    uri,
    label,
    line: d.range.start.line,
    character: d.range.start.character,
    raceId: data.raceId,
    category: data.category,
    message: d.message,
    evidence: data.evidence === true,
    ...(typeof data.fix === 'string' ? { fix: data.fix } : {}),
  };
}

/**
 * Groups race entries by category, then file, each sorted. A race shows
 * once in a file, at its first line there: a race whose two accesses are
 * in the same file is one race, not two rows.
 */
export function buildRaceTree(entries: readonly RaceEntry[]): CategoryGroup[] {
  const byCat = new Map<string, Map<string, FileGroup>>();
  const ids = new Map<string, Set<string>>();
  for (const e of entries) {
    let files = byCat.get(e.category);
    if (!files) {
      files = new Map();
      byCat.set(e.category, files);
      ids.set(e.category, new Set());
    }
    let f = files.get(e.uri);
    if (!f) {
      f = { uri: e.uri, label: e.label, races: [] };
      files.set(e.uri, f);
    }
    f.races.push(e);
    ids.get(e.category)!.add(e.raceId);
  }
  const rank = (c: string) => {
    const i = categoryOrder.indexOf(c);
    return i < 0 ? categoryOrder.length : i;
  };
  return [...byCat.entries()]
    .sort(([a], [b]) => rank(a) - rank(b) || a.localeCompare(b))
    .map(([category, files]) => ({
      category,
      count: ids.get(category)!.size,
      files: [...files.values()]
        .sort((a, b) => a.label.localeCompare(b.label))
        .map((f) => ({ ...f, races: firstOfEach(f.races.sort((a, b) => a.line - b.line || a.character - b.character)) })),
    }));
}

/** The first entry of each race, in order. */
function firstOfEach(races: RaceEntry[]): RaceEntry[] {
  const seen = new Set<string>();
  return races.filter((r) => !seen.has(r.raceId) && seen.add(r.raceId) !== undefined);
}

/** Distinct harmful races (spec-violated or output-differs), for the badge. */
export function harmfulCount(tree: readonly CategoryGroup[]): number {
  return tree.filter((g) => g.category === 'spec-violated' || g.category === 'output-differs').reduce((n, g) => n + g.count, 0);
}

/**
 * The first sentence of a race message, for a tree item's label, without
 * the "Data race on" every one begins with: the view's rows are narrow,
 * and what tells races apart (the object, the other access) comes after.
 */
export function shortMessage(message: string): string {
  const m = /^(.*?\.)(\s|$)/.exec(message);
  return (m ? m[1] : message).replace(/^Data race on /, '');
}
