// The races view: a tree of the races in the workspace, grouped by
// category and file with counts, that follows the diagnostics. Clicking a
// race opens its line; its context menu replays it or shows its
// interleaving.
import * as vscode from 'vscode';

import {
  buildRaceTree,
  CategoryGroup,
  categoryMeaning,
  FileGroup,
  harmfulCount,
  raceEntry,
  RaceEntry,
  shortMessage,
} from './raceTree';

type Node = { kind: 'category'; group: CategoryGroup } | { kind: 'file'; group: FileGroup; category: string } | { kind: 'race'; race: RaceEntry };

export class RacesView implements vscode.TreeDataProvider<Node> {
  private tree: CategoryGroup[] = [];
  private readonly changed: vscode.EventEmitter<Node | undefined>;
  readonly onDidChangeTreeData: vscode.Event<Node | undefined>;
  private view: vscode.TreeView<Node> | undefined;

  constructor(private readonly api: typeof vscode) {
    this.changed = new api.EventEmitter<Node | undefined>();
    this.onDidChangeTreeData = this.changed.event;
  }

  /** Creates the tree view and follows the diagnostics from now on. */
  register(context: vscode.ExtensionContext): void {
    this.view = this.api.window.createTreeView('augur.races', { treeDataProvider: this, showCollapseAll: true });
    context.subscriptions.push(this.view, this.changed, this.api.languages.onDidChangeDiagnostics(() => this.refresh()));
    this.refresh();
  }

  /** Rebuilds the tree from every file's diagnostics. */
  refresh(): void {
    const entries: RaceEntry[] = [];
    for (const [uri, diags] of this.api.languages.getDiagnostics()) {
      const label = this.api.workspace.asRelativePath(uri, false);
      for (const d of diags) {
        const e = raceEntry(uri.toString(), label, d as unknown as Parameters<typeof raceEntry>[2]);
        if (e) {
          entries.push(e);
        }
      }
    }
    this.tree = buildRaceTree(entries);
    if (this.view) {
      const harmful = harmfulCount(this.tree);
      this.view.badge = harmful > 0 ? { value: harmful, tooltip: harmful === 1 ? '1 harmful race' : `${harmful} harmful races` } : undefined;
      this.view.message = this.tree.length === 0 ? 'No races in the files analyzed so far.' : undefined;
    }
    this.changed.fire(undefined);
  }

  /** The current grouping (tests read it). */
  groups(): readonly CategoryGroup[] {
    return this.tree;
  }

  getChildren(node?: Node): Node[] {
    if (!node) {
      return this.tree.map((group) => ({ kind: 'category', group }));
    }
    if (node.kind === 'category') {
      return node.group.files.map((group) => ({ kind: 'file', group, category: node.group.category }));
    }
    if (node.kind === 'file') {
      return node.group.races.map((race) => ({ kind: 'race', race }));
    }
    return [];
  }

  getTreeItem(node: Node): vscode.TreeItem {
    const api = this.api;
    if (node.kind === 'category') {
      const g = node.group;
      const item = new api.TreeItem(`${g.category} (${g.count})`, api.TreeItemCollapsibleState.Expanded);
      item.description = categoryMeaning[g.category] ?? '';
      item.contextValue = 'category';
      return item;
    }
    if (node.kind === 'file') {
      const g = node.group;
      const item = new api.TreeItem(g.label, api.TreeItemCollapsibleState.Expanded);
      item.resourceUri = api.Uri.parse(g.uri);
      item.description = `${g.races.length}`;
      item.contextValue = 'file';
      return item;
    }
    const r = node.race;
    const item = new api.TreeItem(`${r.line + 1}: ${shortMessage(r.message)}`, api.TreeItemCollapsibleState.None);
    item.tooltip = r.fix ? `${r.message}\n\nVerified fix: ${r.fix}` : r.message;
    // The context menu (package.json's menus) offers what the race has:
    // its evidence to replay ("race.evidence"), its verified fix to apply
    // ("….fixable").
    item.contextValue = ['race', ...(r.evidence ? ['evidence'] : []), ...(r.fix ? ['fixable'] : [])].join('.');
    item.command = {
      title: 'Open',
      command: 'vscode.open',
      arguments: [api.Uri.parse(r.uri), { selection: new api.Range(r.line, r.character, r.line, r.character) }],
    };
    return item;
  }
}

/** The race id of a view node passed to a context-menu command. */
export function raceIdOfNode(node: unknown): string | undefined {
  const n = node as { kind?: string; race?: { raceId?: string } } | undefined;
  return n?.kind === 'race' ? n.race?.raceId : undefined;
}
