// The extension in a real VS Code: code-server (VS Code 1.100) with the
// freshly built bin/augur.vsix installed, driven through headless Chromium
// as a user would drive it. It opens a racy C file, edits and saves it, and
// checks what the user sees: the squiggles and their severities, the hover,
// the code lenses, the Problems entries with their related locations, the
// Races view with its badge, and the interleaving timeline in its webview.
// Screenshots of each step go to $AUGUR_SCREENSHOT_DIR (make test: bin/screenshots).
//
// Nothing here sleeps for a fixed time: every step waits for what the user
// would wait for, with a deadline long enough for a loaded machine.
import { test, before, after, beforeEach } from 'node:test';
import assert from 'node:assert/strict';
import { spawn, execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { createRequire } from 'node:module';

const here = path.dirname(fileURLToPath(import.meta.url));
const repo = path.resolve(here, '..', '..');
const require = createRequire(import.meta.url);

const augur = process.env.AUGUR_BIN ?? path.join(repo, 'bin', 'augur');
const vsix = process.env.AUGUR_VSIX ?? path.join(repo, 'bin', 'augur.vsix');
const shots = process.env.AUGUR_SCREENSHOT_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'augur-shots-'));
const program = path.join(repo, 'testdata', 'vscode', 'ledger.c');
const entry = path.join(here, 'node_modules', 'code-server', 'out', 'node', 'entry.js');
const chromium = process.env.AUGUR_CHROMIUM ?? '/usr/bin/chromium';

// Long enough for an analysis on a busy two-core machine; a failure names
// what did not appear.
const patience = Number(process.env.AUGUR_E2E_PATIENCE ?? 180_000);
/** The id of a race no analysis has (a keybinding replays it). */
const goneRace = '0123456789ab';

let tmp;
let server;
let browser;
let page;
let serverLog = '';

/**
 * The expectations written in the program: each `// race: NAME CATEGORY`
 * comment, with its 1-based line (a line may hold several).
 */
function expectations(file) {
  const want = [];
  fs.readFileSync(file, 'utf8')
    .split('\n')
    .forEach((text, i) => {
      for (const m of text.matchAll(/\/\/ race: (\S+) (\S+)/g)) {
        want.push({ line: i + 1, name: m[1], category: m[2] });
      }
      // A failure some schedule reaches is an error of its own.
      for (const m of text.matchAll(/\/\/ failure: (\S+)/g)) {
        want.push({ line: i + 1, name: m[1], category: 'failure' });
      }
    });
  return want;
}

/** code-server's command line with this test's own user data and extensions. */
function codeServer(args) {
  return [entry, '--user-data-dir', path.join(tmp, 'user'), '--extensions-dir', path.join(tmp, 'extensions'), ...args];
}

async function shot(name) {
  fs.mkdirSync(shots, { recursive: true });
  await page.screenshot({ path: path.join(shots, `vscode-${name}.png`) });
}

// The running test's name, so that each failure keeps a screenshot of its
// own (vscode-failed-<test>.png) rather than the run's last failure
// overwriting the others'.
let running = '';
beforeEach((t) => { running = t.name; });

/** Keeps a screenshot of the page as the running test failed. */
async function failedShot() {
  const slug = running.toLowerCase().replace(/[^a-z0-9]+/g, '-').replace(/^-|-$/g, '').slice(0, 60);
  await shot(`failed-${slug || 'setup'}`);
}

/** Starts code-server on a free port and resolves with its address. */
function startServer(workspace) {
  return new Promise((resolve, reject) => {
    server = spawn(
      process.execPath,
      codeServer([
        '--auth', 'none', '--bind-addr', '127.0.0.1:0', '--disable-telemetry', '--disable-update-check',
        '--disable-workspace-trust', '--disable-getting-started-override', workspace,
      ]),
      // detached: its own process group, so that the end of the test
      // stops it with every process under it (the extension host, the
      // language server).
      { env: { ...process.env, AUGUR_CACHE_DIR: path.join(tmp, 'cache'), XDG_CONFIG_HOME: path.join(tmp, 'config') }, stdio: ['ignore', 'pipe', 'pipe'], detached: true },
    );
    const timer = setTimeout(() => reject(new Error(`code-server did not start:\n${serverLog}`)), 60_000);
    const read = (chunk) => {
      serverLog += chunk.toString();
      const m = /HTTP server listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(serverLog);
      if (m) {
        clearTimeout(timer);
        resolve(m[1]);
      }
    };
    server.stdout.on('data', read);
    server.stderr.on('data', read);
    server.on('exit', (code) => reject(new Error(`code-server exited (${code}):\n${serverLog}`)));
  });
}

before(async () => {
  assert.ok(fs.existsSync(entry), `code-server is not installed: make setup runs ${path.join(here, 'install.sh')}`);
  assert.ok(fs.existsSync(vsix), `${vsix} is missing: make vsix builds it`);
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'augur-vscode-'));
  const workspace = path.join(tmp, 'workspace');
  fs.mkdirSync(workspace);
  fs.copyFileSync(program, path.join(workspace, 'ledger.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'lsp', 'retire.c'), path.join(workspace, 'retire.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'fix', 'missing_lock.c'), path.join(workspace, 'bank.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'fix', 'member_lock.c'), path.join(workspace, 'account.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'classify', 'disjoint_bits.c'), path.join(workspace, 'status.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'fix', 'lock_order.c'), path.join(workspace, 'transfer.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'lsp', 'call_paths.c'), path.join(workspace, 'hits.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'accuracy', 'verbose_total.c'), path.join(workspace, 'logger.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'accuracy', 'layout_switch.c'), path.join(workspace, 'layout.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'budget', 'flag_never_set.c'), path.join(workspace, 'waiter.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'vscode', 'grower.c'), path.join(workspace, 'grower.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'vscode', 'jobs.c'), path.join(workspace, 'jobs.c'));
  fs.copyFileSync(path.join(repo, 'testdata', 'vscode', 'counters.c'), path.join(workspace, 'counters.c'));
  // orders.c reads orders.txt, which the workspace has and no
  // configuration gives it (testdata/vscode/orders.c).
  fs.copyFileSync(path.join(repo, 'testdata', 'vscode', 'orders.c'), path.join(workspace, 'orders.c'));
  fs.writeFileSync(path.join(workspace, 'orders.txt'), '120\n45\n300\n');
  // report.c's race shows only in the file it writes, report.txt
  // (testdata/accuracy/written_report.c).
  fs.copyFileSync(path.join(repo, 'testdata', 'accuracy', 'written_report.c'), path.join(workspace, 'report.c'));
  // completion.c signals a condition after letting its mutex go, while
  // main destroys and frees it (testdata/race/cond_signal_late.c).
  fs.copyFileSync(path.join(repo, 'testdata', 'race', 'cond_signal_late.c'), path.join(workspace, 'completion.c'));
  // teardown.c destroys a spin lock, a semaphore and a barrier its worker
  // may still use: harmless with glibc (testdata/race/destroy_early.c).
  fs.copyFileSync(path.join(repo, 'testdata', 'race', 'destroy_early.c'), path.join(workspace, 'teardown.c'));
  // counter.cpp's racing threads are std::threads running a lambda
  // (testdata/race/cpp_counter.cpp).
  fs.copyFileSync(path.join(repo, 'testdata', 'race', 'cpp_counter.cpp'), path.join(workspace, 'counter.cpp'));
  // shared_map.cpp inserts into one std::map from two threads with no
  // lock: its races are inside libstdc++ (testdata/lsp/shared_map.cpp).
  fs.copyFileSync(path.join(repo, 'testdata', 'lsp', 'shared_map.cpp'), path.join(workspace, 'shared_map.cpp'));
  // jobdone.c makes completion.c's calls through macros
  // (testdata/race/macro_teardown.c).
  fs.copyFileSync(path.join(repo, 'testdata', 'race', 'macro_teardown.c'), path.join(workspace, 'jobdone.c'));
  // totals.c races after 850,000 scheduling decisions, four threads
  // taking a lock in turns (testdata/budget/long_replay.c).
  fs.copyFileSync(path.join(repo, 'testdata', 'budget', 'long_replay.c'), path.join(workspace, 'totals.c'));
  // A program split over files, in a folder of its own, that no
  // configuration describes: tally/main.c calls into tally.c, which logs
  // through log.c; other.c is another program and broken.c does not
  // compile (testdata/project/tally/main.c says what is expected).
  fs.cpSync(path.join(repo, 'testdata', 'project', 'tally'), path.join(workspace, 'tally'), { recursive: true });
  // A ThreadSanitizer report of ledger.c's use after free, as a CI run
  // would leave it (written in ThreadSanitizer's format), named by the
  // tsanReport setting below.
  fs.mkdirSync(path.join(workspace, 'ci'));
  fs.writeFileSync(path.join(workspace, 'ci', 'tsan-nightly.log'), [
    '==================',
    'WARNING: ThreadSanitizer: data race (pid=31337)',
    '  Write of size 8 at 0x7b0400000010 by main thread:',
    '    #0 free <null> (libtsan.so.0+0x35f45)',
    '    #1 main /ci/src/ledger.c:43:2 (ledger+0x12ab)',
    '',
    '  Previous read of size 4 at 0x7b0400000010 by thread T1:',
    '    #0 auditor /ci/src/ledger.c:33:31 (ledger+0x11f0)',
    '',
    'SUMMARY: ThreadSanitizer: data race /ci/src/ledger.c:43:2 in main',
    '==================',
    '',
  ].join('\n'));
  const settings = path.join(tmp, 'user', 'User');
  fs.mkdirSync(settings, { recursive: true });
  fs.writeFileSync(
    path.join(settings, 'settings.json'),
    JSON.stringify({
      'augur.path': augur,
      'augur.tsanReport': ['ci/*.log'],
      'workbench.startupEditor': 'none',
      'workbench.tips.enabled': false,
      'security.workspace.trust.enabled': false,
      'telemetry.telemetryLevel': 'off',
      'extensions.autoCheckUpdates': false,
      'extensions.autoUpdate': false,
      'editor.hover.delay': 100,
      'editor.stickyScroll.enabled': false,
      'window.autoDetectColorScheme': false,
      'workbench.colorTheme': 'Default Dark Modern',
    }),
  );
  // A key that runs Replay evidence on a race no analysis has: what a
  // code lens drawn before the last save's analysis asks for.
  fs.writeFileSync(
    path.join(settings, 'keybindings.json'),
    JSON.stringify([{ key: 'ctrl+alt+shift+g', command: 'augur.replayEvidence', args: goneRace }]),
  );
  const out = execFileSync(process.execPath, codeServer(['--install-extension', vsix]), { encoding: 'utf8' });
  assert.match(out, /successfully installed/, out);

  const url = await startServer(workspace);
  const { chromium: driver } = require('playwright-core');
  browser = await driver.launch({
    executablePath: chromium,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  });
  page = await browser.newPage({ viewport: { width: 1500, height: 950 } });
  await page.goto(`${url}/?folder=${encodeURIComponent(workspace)}`);
  await page.waitForSelector('.monaco-workbench', { timeout: patience });
});

/** Stops code-server and every process of its group, and waits for it. */
async function stopServer() {
  if (!server) {
    return;
  }
  const group = (signal) => {
    try {
      process.kill(-server.pid, signal);
    } catch {
      // the group is gone already
    }
  };
  if (server.exitCode === null && server.signalCode === null) {
    const exited = new Promise((resolve) => server.once('exit', resolve));
    group('SIGTERM');
    await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 10_000))]);
  }
  group('SIGKILL'); // what outlived the server (an extension host, a language server)
}

after(async () => {
  await browser?.close();
  await stopServer();
  if (tmp && !process.env.AUGUR_E2E_KEEP) {
    // A compile the language server started may still write to its cache
    // for a moment: clang runs in a process group of its own, bounded by
    // its timeout.
    fs.rmSync(tmp, { recursive: true, force: true, maxRetries: 60, retryDelay: 250 });
  }
});

/** The editor's visible line whose text contains `text` (the first). */
function viewLine(text) {
  return page.locator('.editor-instance .view-line', { hasText: text }).first();
}

/**
 * Waits for what the user should see; when it does not come, the failure
 * quotes VS Code's notifications (a server that did not start says why
 * there) and keeps a screenshot.
 */
async function expectVisible(locator, what) {
  try {
    await locator.waitFor({ timeout: patience });
  } catch (err) {
    await failedShot();
    const notes = await page.locator('.notifications-toasts .notification-list-item-message').allInnerTexts();
    throw new Error(`${what} did not appear within ${patience / 1000} s; notifications: ${JSON.stringify(notes)}`, { cause: err });
  }
}

/** Waits until locator stops moving (a notification sliding in), for a screenshot. */
async function settled(locator) {
  let last = '';
  for (let i = 0; i < 50; i++) {
    const box = JSON.stringify(await locator.boundingBox());
    if (box === last) {
      return;
    }
    last = box;
    await page.waitForTimeout(100);
  }
}

/**
 * Moves the cursor to a line (1-based), which scrolls it into view. The
 * editor gets the keyboard from a click on the number of a line in its
 * middle: a click in its text may land on a code lens, whose command then
 * runs (and the Enter below answers its question), and the first line's
 * number lies under the shadow of a scrolled editor.
 */
async function goToLine(n) {
  const numbers = page.locator('.editor-instance .monaco-editor').first().locator('.margin-view-overlays .line-numbers');
  await numbers.first().waitFor({ timeout: patience });
  await numbers.nth(Math.floor((await numbers.count()) / 2)).click();
  await page.keyboard.press('Control+G');
  await page.keyboard.type(String(n));
  await page.keyboard.press('Enter');
}

/** Waits until the visible hover has faded in whole (a screenshot shows it all). */
async function fadedIn() {
  await page.waitForFunction(() => {
    const h = document.querySelector('.monaco-hover:not(.hidden)');
    return h && getComputedStyle(h).opacity === '1';
  }, null, { timeout: 5_000 });
}

/** Hovers the given word on line n (1-based) and returns the hover's text. */
async function hoverOn(n, word) {
  await goToLine(n);
  const text = fs.readFileSync(program, 'utf8').split('\n')[n - 1].trim();
  const line = viewLine(text.slice(0, 20));
  const span = line.locator('span span', { hasText: word }).first();
  // VS Code shows the diagnostic's part of the hover at once and augur's
  // own part when the server answers: wait for augur's, then for the hover
  // to finish fading in (a screenshot shows it whole). A code lens that
  // arrives above the line moves the text under the mouse and hides the
  // hover, at either step; a user then moves the mouse onto the word
  // again, and so do we. An editor in another tab keeps its last hover
  // in the page, hidden: only a visible one counts.
  const hover = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content:visible', { hasText: /What goes wrong|What augur saw/ }).first();
  const deadline = Date.now() + patience;
  for (;;) {
    await page.mouse.move(0, 0);
    await span.hover();
    try {
      await hover.waitFor({ timeout: 5_000 });
      await fadedIn();
      // Awaited here, so a hover hidden before it is read is tried again.
      return await hover.innerText({ timeout: 5_000 });
    } catch (err) {
      if (Date.now() > deadline) {
        await failedShot();
        throw err;
      }
    }
  }
}

/**
 * Does open (which shows a menu or a hover) until target appears in it,
 * closing it with Escape between tries: what augur adds to a menu (a
 * verified fix) comes after the analysis, once the fix was checked.
 */
async function openUntil(open, target) {
  const deadline = Date.now() + patience;
  for (;;) {
    await open();
    try {
      await target.waitFor({ timeout: 3_000 });
      return;
    } catch (err) {
      await page.keyboard.press('Escape');
      if (Date.now() > deadline) {
        await failedShot();
        throw err;
      }
      await page.waitForTimeout(1_000);
    }
  }
}

/** Presses ArrowDown until item (in a menu that has the keyboard) is focused, then Enter. */
async function chooseWithKeyboard(item) {
  for (let i = 0; i < 10 && !/\bfocused\b/.test(await item.getAttribute('class')); i++) {
    await page.keyboard.press('ArrowDown');
  }
  await page.keyboard.press('Enter');
}

/** The frame that holds a timeline whose title matches, if one does now. */
async function shownTimeline(title) {
  for (const f of page.frames()) {
    if (await f.locator('table.timeline').count().catch(() => 0)) {
      const h1 = await f.locator('h1').innerText().catch(() => '');
      if (title.test(h1)) {
        return f;
      }
    }
  }
  return undefined;
}

/** Waits for the timeline webview and returns the frame that holds its page. */
async function timelineFrame(title = /./) {
  const deadline = Date.now() + patience;
  while (Date.now() < deadline) {
    const f = await shownTimeline(title);
    if (f) {
      return f;
    }
    await page.waitForTimeout(250);
  }
  throw new Error(`the timeline webview (${title}) did not appear`);
}

const want = expectations(program);
const count = (category) => want.filter((w) => w.category === category).length;
const races = (category) => new Set(want.filter((w) => w.category === category).map((w) => w.name)).size;

test('the extension starts and a save shows the squiggles, Errors for spec-violated and Warnings for output-differs', async () => {
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'ledger.c' }).dblclick({ timeout: patience });
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await editor.waitFor({ timeout: patience });
  // An edit and a save, as a user makes them.
  await editor.click();
  await page.keyboard.press('Control+End');
  await page.keyboard.type('// saved from the end-to-end test\n');
  await page.keyboard.press('Control+S');
  // The status bar counts the diagnostics: one per racing access, one per failure.
  const errors = count('spec-violated') + count('failure');
  await expectVisible(
    page.locator(`#status\\.problems[aria-label="Errors: ${errors}, Warnings: ${count('output-differs')}"]`),
    `${errors} errors and ${count('output-differs')} warnings`,
  );
  await goToLine(43);
  assert.ok(await page.locator('.squiggly-error').count() >= 1, 'no error squiggle');
  assert.ok(await page.locator('.squiggly-warning').count() >= 1, 'no warning squiggle');
  await shot('1-squiggles');
  const status = await page.locator('#status\\.augur, .statusbar-item', { hasText: 'augur' }).first().innerText();
  assert.match(status, /augur/);
});

test('the Problems panel lists each race with its category and related locations', async () => {
  await page.keyboard.press('Control+Shift+M');
  const panel = page.locator('.markers-panel');
  await panel.waitFor({ timeout: 30_000 });
  const rows = page.locator('.markers-panel .monaco-list-row');
  await rows.first().waitFor({ timeout: 30_000 });
  await shot('2-problems');
  const text = (await rows.allInnerTexts()).join('\n');
  assert.match(text, /spec-violated/);
  assert.match(text, /\[Ln 43, Col 2\]/);
  // Related information: the other access, the allocation, the free.
  assert.match(text, /ledger\.c\s*\[Ln 38, Col \d+\]\s*:\s*.*allocated here/);
  assert.match(text, /ledger\.c\s*\[Ln 43, Col 2\]\s*:\s*.*freed here/);
  // A related place opens in the program's own file: where the harmful
  // order fails puts the cursor on line 33 of ledger.c.
  await rows.filter({ hasText: 'the harmful order fails here' }).first().dblclick();
  await page.locator('.statusbar', { hasText: /Ln 33, Col \d+ \(13 selected\)/ }).waitFor({ timeout: 30_000 });
  await shot('2b-related');
  assert.equal(await page.locator('.tab.active').first().innerText().then((t) => t.split('\n')[0]), 'ledger.c');
  assert.equal(await page.getByText('could not be opened').count(), 0);
  // Close the panel again by name: its toggle would only focus it when the
  // double-click left the focus in the editor.
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('View: Close Panel');
  await page.keyboard.press('Enter');
  await panel.waitFor({ state: 'hidden', timeout: 30_000 });
});

test('the hover on a racing access says what goes wrong and how to see it', async () => {
  const hover = await hoverOn(43, 'free'); // faded in whole, for the screenshot
  await shot('3-hover');
  assert.match(hover, /spec-violated/);
  assert.match(hover, /book->entries/, 'the heap object is named by its expression');
  assert.match(hover, /use after free/);
  assert.match(hover, /[Rr]eplay/);
  await page.keyboard.press('Escape');
});

test('a race ThreadSanitizer reported in CI says so in its hover', async () => {
  const hover = await hoverOn(43, 'free');
  // The hover scrolls: bring its ThreadSanitizer line into view, as a
  // user scrolling it would, for the screenshot.
  await page.locator('.monaco-hover:not(.hidden) .monaco-hover-content li', { hasText: 'ThreadSanitizer' }).first()
    .evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await shot('3b-tsan-hover');
  assert.match(hover, /ThreadSanitizer reported this race too: warning 1 \(ci\/tsan-nightly\.log, line 2\)/);
  await page.keyboard.press('Escape');
});

test('the racing line has code lenses, and Show interleaving opens the timeline webview', async () => {
  await goToLine(43);
  const lenses = page.locator('.contentWidgets .codelens-decoration a:visible');
  const lens = lenses.filter({ hasText: 'Show interleaving' }).last();
  await lens.waitFor({ timeout: patience });
  const texts = await lenses.allInnerTexts();
  assert.ok(texts.some((t) => /Replay evidence/.test(t)), `lenses: ${texts}`);
  await lens.click({ timeout: patience });
  const frame = await timelineFrame();
  await shot('4-timeline');
  const body = await frame.locator('body').innerText();
  assert.match(body, /thread 0 \(main\)/);
  assert.match(body, /free\(book\);/); // what main did, in its own words
  assert.match(body, /racing access 1: /);
  assert.match(body, /fails: crash: use after free/); // the failing step has a box
  assert.doesNotMatch(body, /\/tmp\//, 'long paths in the timeline');
  // It fits its column: no horizontal scrolling.
  const fits = await frame.evaluate(() => document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1);
  assert.ok(fits, 'the timeline is wider than its column');
  // Dark theme: the page takes the editor's background, not white.
  const bg = await frame.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(bg, 'rgb(255, 255, 255)', 'a white page in a dark theme');
});

test("an output-differs race's Show output difference opens a diff of the two orders' outputs", async () => {
  const lens = page.locator('.contentWidgets .codelens-decoration a:visible', { hasText: /^Show output difference$/ }).first();
  const tab = page.locator('.tabs-container .tab', { hasText: /augur: output, \w+ order ↔ \w+ order/ });
  // A click can land while the lenses are drawn again: try until the diff opens.
  await openUntil(async () => {
    await goToLine(20);
    await lens.waitFor({ timeout: patience });
    await lens.click({ timeout: patience });
  }, tab);
  const diff = page.locator('.monaco-diff-editor:visible');
  await expectVisible(diff, 'the diff editor of the two outputs');
  await settled(diff);
  await shot('4b-output-diff');
  const text = await diff.innerText();
  assert.match(text, /entries/, 'the outputs in the diff');
  await tab.locator('.codicon-close').click();
});

test('a failure an explored schedule reached has lenses of its own, and its timeline shows how', async () => {
  const { line } = want.find((w) => w.category === 'failure');
  await goToLine(line);
  // The line holds races too: its lens stands for all of them, once, and
  // asks which one to show.
  const lens = page.locator('.contentWidgets .codelens-decoration a:visible', { hasText: /^Show interleaving \(\d+\)$/ });
  await lens.waitFor({ timeout: patience });
  const lenses = await page.locator('.contentWidgets .codelens-decoration:visible').allInnerTexts();
  assert.ok(!lenses.some((l) => / · /.test(l)), `lenses named one per race: ${lenses}`);
  await lens.click({ timeout: patience });
  // The question is a quick pick (a notification's buttons cut the names
  // short), each race named by its memory and its category.
  const rows = page.locator('.quick-input-widget .monaco-list-row');
  const choice = rows.filter({ hasText: /the memory-error at ledger\.c:\d+/ });
  await expectVisible(choice, 'the question which race or failure to show');
  await settled(choice);
  const texts = await rows.allInnerTexts();
  assert.ok(texts.some((t) => /book->entries \((spec-violated|output-differs)\)/.test(t)), `choices: ${texts}`);
  await shot('7-which-one');
  await choice.click();
  const frame = await timelineFrame(new RegExp(`reaches the crash at ledger\\.c:${line}`));
  await shot('7-failure-timeline');
  const body = await frame.locator('body').innerText();
  assert.match(body, /A failure reached under one schedule/);
  assert.match(body, /fails: crash: use after free/);
  assert.match(body, /free\(book\);/);
  assert.doesNotMatch(body, /racing access/, 'a failure has no racing accesses');
});

test('the Races view groups the races by category, with a badge counting the harmful ones', async () => {
  const container = page.locator('.activitybar .action-item[aria-label^="augur"]');
  const harmful = races('spec-violated') + races('output-differs');
  assert.equal(await container.locator('.badge').innerText(), String(harmful));
  await container.click();
  const tree = page.locator('.pane-body .monaco-list-row');
  await tree.filter({ hasText: 'output-differs' }).waitFor({ timeout: 30_000 });
  await shot('5-races');
  const text = (await tree.allInnerTexts()).join('\n');
  assert.match(text, new RegExp(`spec-violated \\(${races('spec-violated')}\\)`));
  assert.match(text, new RegExp(`output-differs \\(${races('output-differs')}\\)`));
});

test('a file shown in a preview tab and replaced as its first analysis shows still gets its races', async () => {
  await page.keyboard.press('Control+Shift+E');
  const row = (name) => page.locator('.explorer-folders-view .monaco-list-row', { hasText: name });
  await row('retire.c').click(); // a single click opens a preview tab
  // retire.c's analysis takes about half a second: the status bar may
  // never draw it running before it ended and the explorer counts its
  // problems. Either way the preview is replaced next, while the analysis
  // runs or just after (lsp's TestClosedDuringFirstAnalysis closes the
  // file at a point the test holds the analysis at).
  const running = page.locator('.statusbar-item', { hasText: 'augur: ' });
  const counted = row('retire.c').filter({ hasText: /\d/ });
  await expectVisible(running.or(counted), 'the analysis of retire.c, running or done');
  await shot('6a-progress');
  // Another file not yet open, in a preview too, replaces it: VS Code
  // closes retire.c (the next test pins bank.c).
  await row('bank.c').click();
  await page.locator('.tabs-container .tab', { hasText: 'retire.c' }).waitFor({ state: 'detached', timeout: patience });
  await expectVisible(page.locator('.statusbar-item', { hasText: /^\s*augur\s*$/ }), 'the end of the analysis');
  // The Problems panel, filtered to retire.c, lists every racing access and failure.
  const accesses = expectations(path.join(repo, 'testdata', 'lsp', 'retire.c')).length;
  await page.keyboard.press('Control+Shift+M');
  await page.locator('[placeholder^="Filter (e.g."]').first().fill('retire.c');
  const header = page.locator('.markers-panel .monaco-list-row').first().filter({ hasText: 'retire.c' });
  await expectVisible(header, "retire.c's races in the Problems panel");
  const title = await header.innerText();
  await shot('6-closed-preview');
  assert.match(title, new RegExp(`retire\\.c\\s*${accesses}`));
});

test('a verified fix is a quick fix on the racing line, and applying it and saving removes the race', async () => {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'bank.c' }).dblclick({ timeout: patience });
  const bank = path.join(tmp, 'workspace', 'bank.c');
  const line = fs.readFileSync(bank, 'utf8').split('\n').findIndex((l) => l.includes('balance += 5;')) + 1;
  // The fix comes after the race's verdict, once augur has analyzed the
  // changed program: ask for the quick fixes until it is among them.
  const item = page.locator('.action-widget .monaco-list-row', { hasText: 'Fix: Hold bank around the access to balance' });
  await openUntil(async () => {
    await goToLine(line);
    await page.keyboard.press('Control+.');
  }, item);
  await shot('7-quick-fix');
  const menu = (await page.locator('.action-widget').innerText());
  assert.match(menu, /verified by augur/);
  assert.doesNotMatch(menu, /Hold bank around.*\n.*Hold bank around/s, 'the fix is offered once');
  // Apply it as a user does: the keyboard moves to it, Enter applies it
  // (the menu's pointer shield keeps a synthetic click from reaching it).
  await chooseWithKeyboard(item);
  await page.keyboard.press('Control+S');
  const deadline2 = Date.now() + patience;
  while (!fs.readFileSync(bank, 'utf8').includes('\tpthread_mutex_lock(&bank);\n\tbalance += 5;')) {
    assert.ok(Date.now() < deadline2, `the fix was not saved:\n${fs.readFileSync(bank, 'utf8')}`);
    await page.waitForTimeout(250);
  }
  // The next analysis finds no race in bank.c: its squiggle goes.
  const editor = page.locator('.editor-instance .monaco-editor').first();
  const deadline3 = Date.now() + patience;
  while (await editor.locator('.squiggly-warning').count() > 0) {
    assert.ok(Date.now() < deadline3, 'the race is still underlined after the fix');
    await page.waitForTimeout(250);
  }
  await goToLine(line + 1);
  await shot('8-fixed');
});

test("a member mutex's fix holds acct->lock across the read, the computation and the write back", async () => {
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'account.c' }).dblclick({ timeout: patience });
  const account = path.join(tmp, 'workspace', 'account.c');
  const line = fs.readFileSync(account, 'utf8').split('\n').findIndex((l) => l.includes('long seen = acct->balance;')) + 1;
  const item = page.locator('.action-widget .monaco-list-row', { hasText: 'Fix: Hold acct->lock around the accesses to acct->balance' });
  await openUntil(async () => {
    await goToLine(line);
    await page.keyboard.press('Control+.');
  }, item);
  await shot('7b-member-quick-fix');
  await chooseWithKeyboard(item);
  await page.keyboard.press('Control+S');
  const deadline = Date.now() + patience;
  while (!fs.readFileSync(account, 'utf8').includes('\tpthread_mutex_lock(&acct->lock);\n\tlong seen = acct->balance;')) {
    assert.ok(Date.now() < deadline, `the fix was not saved:\n${fs.readFileSync(account, 'utf8')}`);
    await page.waitForTimeout(250);
  }
  assert.match(fs.readFileSync(account, 'utf8'), /acct->balance = seen - fee;[^\n]*\n\tpthread_mutex_unlock\(&acct->lock\);/,
    'the unlock comes after the write back');
  const editor = page.locator('.editor-instance .monaco-editor').first();
  const deadline2 = Date.now() + patience;
  while (await editor.locator('.squiggly-warning').count() > 0) {
    assert.ok(Date.now() < deadline2, 'the race is still underlined after the fix');
    await page.waitForTimeout(250);
  }
  // No click in the editor's text: a code lens of the races just fixed
  // may still be drawn there until the editor asks for the lenses again,
  // and a click on it asks for a race that is gone.
  await shot('8b-member-fixed');
  // Closed, so that the code lenses its last analysis showed cannot be
  // the ones a later test clicks.
  await page.keyboard.press('Control+W');
});

test('a code lens of a race the last save removed says the race is gone, not an error', async () => {
  // The editor draws the lenses it has until it asks again: a click on one
  // of a race just fixed names a race the server no longer has.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Alt+Shift+G');
  const note = page.locator('.notifications-toasts .notification-list-item', { hasText: 'that race is gone' }).first();
  await expectVisible(note, 'the notification that the race is gone');
  await settled(note);
  await shot('8c-gone-race');
  assert.equal(await note.locator('.codicon-error').count(), 0, 'shown as an error');
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('Notifications: Clear All Notifications');
  await page.keyboard.press('Enter');
});

/**
 * Opens a workspace file from the Explorer and shows the hover on the
 * first line holding `statement`, with the keyboard, as a user can: the
 * cursor on the statement's first word (Home), then Show Hover (Ctrl+K
 * Ctrl+I), until a hover with `has` in it appears. Returns its text.
 */
async function keyboardHover(name, statement, has) {
  await page.keyboard.press('Control+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: name }).dblclick({ timeout: patience });
  const file = path.join(tmp, 'workspace', name);
  const line = fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes(statement)) + 1;
  return (await hoverAtLine(line, has)).innerText();
}

/**
 * Shows the hover at line (1-based) of the open editor with the keyboard
 * until one with `has` in it appears, and returns that hover.
 */
async function hoverAtLine(line, has) {
  const hoverBox = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content:visible', { hasText: has }).first();
  await openUntil(async () => {
    await goToLine(line);
    await page.keyboard.press('Home');
    await page.keyboard.press('Control+K');
    await page.keyboard.press('Control+I');
  }, hoverBox);
  return hoverBox;
}

test("a real trace's timeline folds the steps that show nothing of the race, and unfolds them on a click", async () => {
  // jobs.c: two workers lock and unlock a queue four times each before
  // one reads the queue main frees (testdata/vscode/jobs.c).
  try {
    await jobsTimeline();
  } finally {
    // The click gave the webview the keyboard, and an open panel narrows
    // the editor the next tests read: close it, passed or not.
    const tab = page.locator('.tabs-container .tab', { hasText: 'augur: interleaving' });
    if (await tab.count()) {
      await tab.locator('.codicon-close').click();
    }
  }
});

/** Opens jobs.c's race timeline from its lens and checks it (foldedTimeline). */
async function jobsTimeline() {
  await keyboardHover('jobs.c', 'worker leaving', 'spec-violated');
  await page.keyboard.press('Escape');
  // The line may also hold the use after free the exploration of
  // schedules reaches: the CLI's, counted in instructions, always does;
  // the editor's, 100 ms a save (exploreTime), only when the machine gets
  // that far. Its lens then stands for both, and asks which one to show.
  const lens = page.locator('.contentWidgets .codelens-decoration a:visible', { hasText: /^Show interleaving( \(2\))?$/ }).first();
  await expectVisible(lens, "jobs.c's Show interleaving lens");
  await lens.click({ timeout: patience });
  await answerWhichOne(/q->name \(spec-violated\)/, /q->name/);
  await foldedTimeline();
}

/**
 * Waits, after a click on a Show interleaving lens, for its timeline
 * (title) or for its question which one to show, which it answers with
 * the choice that has choice in it.
 */
async function answerWhichOne(choice, title) {
  const row = page.locator('.quick-input-widget .monaco-list-row', { hasText: choice });
  const deadline = Date.now() + patience;
  while (Date.now() < deadline) {
    if (await row.isVisible()) {
      await row.click();
      return;
    }
    if (await shownTimeline(title)) {
      return;
    }
    await page.waitForTimeout(250);
  }
  await failedShot();
  throw new Error(`neither the timeline (${title}) nor the question with ${choice} appeared within ${patience / 1000} s`);
}

/**
 * Checks jobs.c's race timeline: its locks folded into one row that a
 * click unfolds, the racing accesses in view.
 */
async function foldedTimeline() {
  // The webview may load its page more than once (a panel shown again):
  // each try takes the frame that holds it now.
  for (let attempt = 1; ; attempt++) {
    try {
      const frame = await timelineFrame(/q->name/);
      const fold = frame.locator('tbody.fold label').first();
      // expectVisible keeps a screenshot of each failure: only the last
      // try may leave one, or a frame detached and handled below reads
      // as a failed run in bin/screenshots.
      if (attempt < 3) {
        await fold.waitFor({ timeout: patience });
      } else {
        await expectVisible(fold, 'a folded run of steps');
      }
      assert.match((await fold.innerText()).trim(), /^\d+ steps of threads? [\d, and]+: (locks|unlocks)/);
      // The racing accesses are in view without scrolling past the locks.
      const box = await frame.locator('.ev.racing').first().boundingBox();
      assert.ok(box && box.y < 900, `the first racing access is ${box?.y}px down`);
      await shot('4c-folded-timeline');
      const before = await frame.locator('.ev:visible').count();
      await fold.click();
      assert.ok((await frame.locator('.ev:visible').count()) > before, 'a click unfolds the steps');
      assert.doesNotMatch(await frame.locator('body').innerText(), /augur-runtime/, 'runtime frames in the timeline');
      break;
    } catch (err) {
      // expectVisible wraps the locator's error: the detach is in its cause.
      if (attempt >= 3 || !/detached/.test(`${err} ${err?.cause ?? ''}`)) {
        await failedShot();
        throw err;
      }
      await page.waitForTimeout(1_000);
    }
  }
}

test('a harmless race that follows a benign pattern names the pattern and its evidence in the hover', async () => {
  const hover = await keyboardHover('status.c', 'status |= 1;', 'Benign pattern');
  await shot('9-benign-pattern');
  assert.match(hover, /k-witness-harmless/);
  assert.match(hover, /Benign pattern — disjoint-bits: the write in writer changes only bits 0x1 of status/);
  await page.keyboard.press('Escape');
});

test('a race that needs an input is found and classified on it with no configuration, and the hover names the input', async () => {
  // logger.c prints the racy total only with -v; it is opened with no
  // arguments, so the analysis explores one short argument of its own.
  const hover = await keyboardHover('logger.c', 'printf("total so far', 'output-differs');
  // Faded in whole, for the screenshot.
  await fadedIn();
  await shot('9b-input-race');
  assert.match(hover, /output-differs/);
  assert.match(hover, /Input:.*-v/);
  await page.keyboard.press('Escape');
});

test("a race whose one possible order fails only by another race's doing names that race in its hover", async () => {
  // layout.c: the reader spins on the loader's flag, then asserts on a
  // mode the tuner sets with no ordering; the flag's race is the ad hoc
  // synchronization, and the assert is the mode race's consequence.
  const hover = await keyboardHover('layout.c', 'ready = 1;', 'consequence of');
  await fadedIn();
  await shot('9c-attributed');
  assert.match(hover, /Only one order of the two accesses can happen/);
  assert.match(hover, /the consequence of the race on compact \(layout\.c:\d+:\d+ against layout\.c:\d+:\d+\)/);
  assert.doesNotMatch(hover, /spec-violated/);
  await page.keyboard.press('Escape');
});

test("the Races view applies a race's verified fix from the race's context menu", async () => {
  await page.keyboard.press('Control+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'transfer.c' }).dblclick({ timeout: patience });
  const transfer = path.join(tmp, 'workspace', 'transfer.c');
  await page.locator('.activitybar .action-item[aria-label^="augur"]').click();
  const row = page.locator('.pane-body .monaco-list-row', { hasText: /moved/ }).first();
  const item = page.locator('.context-view .monaco-menu .action-item', { hasText: "Apply the race's verified fix" });
  // The fix comes after the verdict: open the race's menu until it has it.
  await row.waitFor({ timeout: patience });
  await openUntil(() => row.click({ button: 'right' }), item);
  await shot('10-races-view-fix');
  // The menu, like the quick-fix list, takes the keyboard.
  await chooseWithKeyboard(item);
  // The edit lands in transfer.c's editor; a save writes it.
  const editor = page.locator('.editor-instance .monaco-editor').first();
  await expectVisible(editor.locator('.view-line', { hasText: 'pthread_mutex_lock(&to_lock);' }).nth(1), 'the lock the fix adds');
  await editor.click();
  await page.keyboard.press('Control+S');
  const deadline2 = Date.now() + patience;
  while (!fs.readFileSync(transfer, 'utf8').includes('\tpthread_mutex_lock(&to_lock);\n\tmoved += 7;')) {
    assert.ok(Date.now() < deadline2, `the fix was not saved:\n${fs.readFileSync(transfer, 'utf8')}`);
    await page.waitForTimeout(250);
  }
});

test('races between the same two statements through other call paths show once, and the hover says how many more', async () => {
  const hover = await keyboardHover('hits.c', 'hits = hits + 1;', 'stands for');
  await shot('11-call-paths');
  assert.match(hover, /It stands for \d+ more races? between the same two statements, reached through other call paths/);
  await page.keyboard.press('Escape');
});

test('a loop that can never end is a hang, found with the default budgets, on its line', async () => {
  // waiter.c spins on a flag its worker never sets: with no instruction
  // budget configured, the first schedule runs until the hang watch
  // proves the loop endless.
  const hover = await keyboardHover('waiter.c', 'while (!ready)', 'loops forever');
  await fadedIn();
  await shot('12-hang');
  assert.match(hover, /the program fails \(hang\)/);
  assert.match(hover, /comes back to the same state while nothing writes memory/);
  assert.match(hover, /thread 0 loops here, in main/);
  assert.doesNotMatch(hover, /instruction budget/);
  await page.keyboard.press('Escape');
});

test('a program that outgrows the memory budget gets a warning where it stopped, naming the setting to raise', async () => {
  // grower.c keeps 384 blocks of a megabyte: under the default budget its
  // analysis ends clean. The user then lowers augur.maxMemory in the
  // Settings editor, and the open file is analyzed again under it.
  // Running out of a budget is the analysis's limit, not the program's
  // failure: a warning on the allocation, not an error, and no check
  // mark in the status bar.
  await page.keyboard.press('Control+Shift+E');
  await page.locator('.explorer-folders-view .monaco-list-row', { hasText: 'grower.c' }).dblclick({ timeout: patience });
  await page.keyboard.press('Control+,');
  const search = page.locator('.settings-editor .settings-header .suggest-input-container');
  await expectVisible(search, 'the Settings editor');
  await search.click();
  await page.keyboard.type('augur.maxMemory');
  const input = page.locator('.settings-editor input[aria-label="augur.maxMemory"]');
  await expectVisible(input, 'the augur.maxMemory setting');
  await input.fill('128MiB');
  await input.press('Enter');
  const file = path.join(tmp, 'user', 'User', 'settings.json');
  const deadline = Date.now() + patience;
  while (!fs.readFileSync(file, 'utf8').includes('"augur.maxMemory": "128MiB"')) {
    assert.ok(Date.now() < deadline, `the setting was not saved:\n${fs.readFileSync(file, 'utf8')}`);
    await page.waitForTimeout(250);
  }
  await page.keyboard.press('Control+W'); // the Settings editor: grower.c is shown again
  const editor = page.locator('.editor-instance:visible');
  const call = editor.locator('.view-line', { hasText: 'cache[i] = malloc(1 << 20);' });
  await expectVisible(call.first(), 'grower.c');
  const hoverBox = page.locator('.monaco-hover:not(.hidden) .monaco-hover-content:visible', { hasText: 'memory budget of 128.0 MiB exhausted' }).first();
  // The mouse on the underlined call, as a user points at it, until the
  // analysis under the new budget has put the warning there.
  await openUntil(async () => {
    await page.mouse.move(0, 0);
    await call.locator('span span', { hasText: 'malloc' }).first().hover();
  }, hoverBox);
  await fadedIn();
  await expectVisible(page.locator('.statusbar-item', { hasText: 'augur: incomplete' }), 'the incomplete analysis in the status bar');
  await shot('13-memory-budget');
  const hover = await hoverBox.innerText();
  assert.match(hover, /augur\.maxMemory/);
  assert.doesNotMatch(hover, /--max-memory/);
  assert.ok(await editor.locator('.squiggly-warning').count() >= 1, 'no warning squiggle');
  assert.equal(await editor.locator('.squiggly-error').count(), 0, 'a budget stop shown as an error');
  await page.mouse.move(0, 0);
});

/** Opens a workspace file by its path with Quick Open, as a user types it. */
async function quickOpen(relPath) {
  await page.keyboard.press('Control+P');
  await page.keyboard.type(relPath);
  const item = page.locator('.quick-input-widget .monaco-list-row', { hasText: path.basename(relPath) }).first();
  await expectVisible(item, `${relPath} in Quick Open`);
  await page.keyboard.press('Enter');
  await expectVisible(page.locator('.tab.active', { hasText: path.basename(relPath) }), `${relPath} open`);
}

test('a program split over files is analyzed whole with no configuration, and the status bar says which files were taken', async () => {
  // Only tally/main.c is opened: augur completes its program from the
  // workspace as a linker would (tally.c for tally_start, log.c for
  // log_line), so the race inside tally.c is found, on tally.c's line.
  await quickOpen('tally/main.c');
  await quickOpen('tally/tally.c');
  const file = path.join(tmp, 'workspace', 'tally', 'tally.c');
  const line = fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('static void *careless')) + 3;
  const hoverBox = await hoverAtLine(line, 'output-differs');
  await fadedIn();
  await shot('15-project-race');
  assert.match(await hoverBox.innerText(), /careless/);
  await page.keyboard.press('Escape');
  // The status bar names the files taken, once the fixes of the race
  // are verified (it shows that progress meanwhile); its tooltip says why.
  const item = page.locator('.statusbar-item', { hasText: /augur(: \w+)? · main\.c with/ }).first();
  await expectVisible(item, 'the status bar naming the files taken');
  assert.match(await item.innerText(), /augur(: \w+)? · main\.c with (tally\.c, log\.c|log\.c, tally\.c)/);
  const tip = page.locator('.workbench-hover:visible, .monaco-hover:not(.hidden):visible', { hasText: 'tally_start' }).first();
  await openUntil(async () => {
    await page.mouse.move(0, 0);
    await item.hover();
  }, tip);
  await shot('16-project-status');
  const said = await tip.innerText();
  assert.match(said, /tally\.c \(defines tally_start, used by main\.c\)/);
  assert.match(said, /log\.c \(defines log_line, used by tally\.c\)/);
  await page.mouse.move(0, 0);
});

/** The files under dir whose name matches re, recursively. */
function findFiles(dir, re) {
  const out = [];
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (e.isDirectory()) {
      out.push(...findFiles(p, re));
    } else if (re.test(e.name)) {
      out.push(p);
    }
  }
  return out;
}

test('a program that opens a file of the workspace augur was not given is told so at the call, with the augur.toml line that gives it', async () => {
  // orders.c's fopen finds nothing in augur's virtual file system, so
  // the analysis ran the program's error path: an information at the
  // call says so, not a clean bill.
  const hover = await keyboardHover('orders.c', 'fopen("orders.txt"', 'the workspace has that file');
  await fadedIn();
  await shot('17-file-not-given');
  assert.match(hover, /looks for orders\.txt here/);
  assert.match(hover, /the analysis of orders(\.c)? ran without it/);
  assert.match(hover, /files = \["orders\.txt"\]/);
  const editor = page.locator('.editor-instance:visible');
  assert.ok(await editor.locator('.squiggly-info').count() >= 1, 'no information squiggle at the call');
  assert.equal(await editor.locator('.squiggly-error, .squiggly-warning').count(), 0, 'a missing file shown as a problem of the program');
  await page.keyboard.press('Escape');
  // Without its file the program exits before its threads: its first
  // line says nothing concurrent was analyzed, not a clean bill.
  const early = await (await hoverAtLine(1, 'nothing concurrent was analyzed')).innerText();
  await fadedIn();
  await shot('17a-exited-early');
  assert.match(early, /exited with status 1 on its own inputs before it created a second thread/);
  assert.match(early, /orders\.txt: No such file or directory/);
  await page.keyboard.press('Escape');
  // The quick fix lists the file in augur.toml's top-level files, making
  // augur.toml (the workspace has none): every program still analyzed,
  // and orders.c, given its file, is analyzed again without the note.
  const file = path.join(tmp, 'workspace', 'orders.c');
  const line = fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('fopen("orders.txt"')) + 1;
  const item = page.locator('.action-widget .monaco-list-row', { hasText: 'Give orders.txt to the program (augur.toml files)' });
  await openUntil(async () => {
    await goToLine(line);
    await page.keyboard.press('Control+.');
  }, item);
  await shot('17b-give-file');
  await chooseWithKeyboard(item);
  const toml = path.join(tmp, 'workspace', 'augur.toml');
  const deadline = Date.now() + patience;
  while (!fs.existsSync(toml) || !fs.readFileSync(toml, 'utf8').includes('files = ["orders.txt"]')) {
    assert.ok(Date.now() < deadline, `augur.toml was not written: ${fs.existsSync(toml) ? fs.readFileSync(toml, 'utf8') : 'none'}`);
    await page.waitForTimeout(250);
  }
  await quickOpen('orders.c');
  const deadline2 = Date.now() + patience;
  while (await page.locator('.editor-instance:visible .squiggly-info').count() > 0) {
    assert.ok(Date.now() < deadline2, 'the call is still marked once augur.toml gives the file');
    await page.waitForTimeout(250);
  }
  await shot('17c-file-given');
  fs.rmSync(toml); // the tests after this one see the workspace as it was
});

test('a race whose consequence is only in a file the program writes names the file, and its diff shows both versions', async () => {
  // report.c prints "done" in either order; the worker writes the mode it
  // read to report.txt.
  const hover = await keyboardHover('report.c', 'int m = mode;', 'report.txt');
  await fadedIn();
  await shot('18-file-difference');
  assert.match(hover, /writes different contents to report\.txt depending on which runs first/);
  assert.match(hover, /File report\.txt:\s*at line 1 of the file, one order leaves mode \d, the other mode \d/);
  await page.keyboard.press('Escape');
  const file = path.join(tmp, 'workspace', 'report.c');
  const line = fs.readFileSync(file, 'utf8').split('\n').findIndex((l) => l.includes('int m = mode;')) + 1;
  const lens = page.locator('.contentWidgets .codelens-decoration a:visible', { hasText: /^Show output difference$/ }).first();
  const tab = page.locator('.tabs-container .tab', { hasText: /augur: report\.txt, \w+ order ↔ \w+ order/ });
  await openUntil(async () => {
    await goToLine(line);
    await lens.waitFor({ timeout: patience });
    await lens.click({ timeout: patience });
  }, tab);
  const diff = page.locator('.monaco-diff-editor:visible');
  await expectVisible(diff, "the diff editor of report.txt's two versions");
  await settled(diff);
  await shot('18b-file-diff');
  const text = await diff.innerText();
  assert.match(text, /mode\s1/); // Monaco draws spaces as no-break spaces
  assert.match(text, /mode\s2/);
  await tab.locator('.codicon-close').click();
});

test('a race between synchronization calls names the calls, not a read and a write', async () => {
  // completion.c: the worker's pthread_cond_signal after its unlock races
  // with main's pthread_cond_destroy (and with the free after it).
  const file = path.join(tmp, 'workspace', 'completion.c');
  const lines = fs.readFileSync(file, 'utf8').split('\n');
  const at = (text) => lines.findIndex((l) => l.includes(text)) + 1;
  // The hover names the calls as soon as the race is detected, and its
  // category once classification ends: wait for both.
  const hover = await keyboardHover('completion.c', 'pthread_cond_signal(&c->cond);',
    /spec-violated[\s\S]*This pthread_cond_signal|This pthread_cond_signal[\s\S]*spec-violated/);
  await fadedIn();
  // The problems come first in the hover: bring augur's own text into
  // view, as a user scrolling it would, for the screenshot.
  await page.locator('.monaco-hover:not(.hidden) .monaco-hover-content p', { hasText: 'This pthread_cond_signal' }).first()
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('19-sync-calls');
  assert.match(hover, /spec-violated/);
  assert.match(hover, new RegExp(`This pthread_cond_signal in worker \\(line ${at('pthread_cond_signal(')}\\) ` +
    `races with the pthread_cond_destroy in main \\(line ${at('pthread_cond_destroy(')}\\)`));
  assert.match(hover, /c->cond/);
  // No fix of this race says to make a condition variable atomic (here
  // augur checks one: the join moved before the destroy).
  assert.doesNotMatch(hover, /make it atomic/);
  await page.keyboard.press('Escape');
  // Through a macro the calls are named as well, from the code: the text
  // there says DONE_SIGNAL(j), and j is not the memory that races.
  const macroFile = fs.readFileSync(path.join(tmp, 'workspace', 'jobdone.c'), 'utf8').split('\n');
  const macroAt = (text) => macroFile.findIndex((l) => l.includes(text)) + 1;
  const macro = await keyboardHover('jobdone.c', 'DONE_SIGNAL(j);', 'This pthread_cond_signal');
  await fadedIn();
  await page.locator('.monaco-hover:not(.hidden) .monaco-hover-content p', { hasText: 'This pthread_cond_signal' }).first()
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('19d-macro-calls');
  assert.match(macro, new RegExp(`This pthread_cond_signal in worker \\(line ${macroAt('DONE_SIGNAL(j);')}\\) ` +
    `races with the pthread_cond_destroy in main \\(line ${macroAt('JOB_TEARDOWN(j);')}\\)`));
  assert.doesNotMatch(macro, /augur: j —/);
  await page.keyboard.press('Escape');
  // A destroy race glibc tolerates is harmless by its consequences, and
  // the hover says POSIX leaves it undefined.
  // The problems' text says "Likely harmless" too, and augur's own first
  // line is there while the race is being classified: wait for its fix,
  // which only the classified hover has.
  const harmless = await keyboardHover('teardown.c', 'pthread_spin_lock(&spin);', 'Let main go on to the pthread_spin_destroy');
  await fadedIn();
  await page.locator('.monaco-hover:not(.hidden) .monaco-hover-content p', { hasText: 'This pthread_spin_lock' }).first()
    .evaluate((el) => el.scrollIntoView({ block: 'start' }));
  await shot('19b-destroy-undefined');
  assert.match(harmless, /This pthread_spin_lock in worker \(line \d+\) races with the pthread_spin_destroy in main/);
  assert.match(harmless, /POSIX leaves a use of the object after pthread_spin_destroy undefined/);
  assert.match(harmless, /Fix: Let main go on to the pthread_spin_destroy only after worker's last pthread_spin_lock/);
  assert.doesNotMatch(harmless, /Nothing to fix/);
  await page.locator('.monaco-hover:not(.hidden) .monaco-hover-content p', { hasText: 'Let main go on to the' }).first()
    .evaluate((el) => el.scrollIntoView({ block: 'end' }));
  await shot('19c-teardown-fix');
  await page.keyboard.press('Escape');
});

test("a long schedule's replay lists its lock's rounds in one row, and reproduces the race", async () => {
  await keyboardHover('totals.c', 'done++;', 'output-differs');
  await page.keyboard.press('Escape');
  const lens = page.locator('.contentWidgets .codelens-decoration a:visible', { hasText: /^Replay evidence$/ }).first();
  const tab = page.locator('.tabs-container .tab', { hasText: /^race-\w+-\w+\.md/ });
  await openUntil(async () => {
    await lens.waitFor({ timeout: patience });
    await lens.click({ timeout: patience });
  }, tab);
  // The fold is some forty rows down: find it as a user would. (The
  // editor shows spaces as no-break spaces: \s matches both.) A second
  // fold follows it, the 4 steps of each round once the execution passes
  // the locks it takes without waiting (its 100,000th decision on): the
  // search names the first, or Enter would move on to the second.
  await page.keyboard.press('Control+F');
  await page.keyboard.type('the 17 steps above again');
  await page.keyboard.press('Enter');
  await page.keyboard.press('Escape');
  // A narrow editor wraps the row after any word: the locator reads its start.
  const fold = page.locator('.editor-instance .view-line', { hasText: /the\s17\ssteps\sabove\sagain,/ }).first();
  await expectVisible(fold, 'the row of the repeated steps');
  await settled(fold);
  await shot('17-folded-replay');
  // The end: what this order printed, and no "Not reproduced".
  await page.keyboard.press('Control+End');
  await expectVisible(page.locator('.editor-instance .view-line', { hasText: /printed\sby\sthread\s0\sat/ }).first(), "the replay's output");
  const end = (await page.locator('.editor-instance .view-line').allInnerTexts()).join('\n');
  assert.doesNotMatch(end, /Not reproduced/);
  await tab.locator('.codicon-close').click();
});

test("the server's log says each message once, at its own level", async () => {
  // The client shows the server's standard error in the same output
  // channel as its window/logMessage, every stderr line as an error: a
  // message the server wrote to both appeared twice, once as an error.
  const logs = findFiles(path.join(tmp, 'user', 'logs'), /augur.*\.log$/i);
  assert.ok(logs.length > 0, `no augur log under ${path.join(tmp, 'user', 'logs')}`);
  const lines = logs.flatMap((f) => fs.readFileSync(f, 'utf8').split('\n')).filter((l) => l.trim() !== '');
  const ended = lines.filter((l) => /ledger\.c: /.test(l) && !/\[error\]/.test(l));
  assert.ok(ended.length > 0, `no analysis of ledger.c logged:\n${lines.slice(0, 40).join('\n')}`);
  const errors = lines.filter((l) => /\[error\]/.test(l));
  assert.deepEqual(errors, [], `lines logged as errors:\n${errors.join('\n')}`);
  // Each analysis is charged for its own memory: waiter.c, analyzed again
  // beside grower.c once the budget was lowered, was stopped for the
  // heap grower.c's executions held ("augur's heap grew by 611.1 MiB").
  const charged = lines.filter((l) => /heap grew/.test(l));
  assert.deepEqual(charged, [], `analyses stopped for the process's heap:\n${charged.join('\n')}`);
  await page.keyboard.press('Control+Shift+U'); // the Output panel
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('Output: Show Output Channels');
  await page.keyboard.press('Enter');
  await page.keyboard.type('augur');
  await page.keyboard.press('Enter');
  // The channel shows its end: the analyses after ledger.c's (and the
  // cancellations of a busy machine) may have scrolled its line away. A
  // view line renders its spaces as no-break spaces, which \s matches.
  await expectVisible(page.locator('.output-view .view-line', { hasText: /\[info\]\s\S+\.c:\s/ }).first(), "augur's output");
  await shot('14-output');
});

test("a race between std::threads names each thread by the program's lambda, not libstdc++'s code", async () => {
  const hover = await keyboardHover('counter.cpp', 's.requests++;', /output-differs[\s\S]*thread \d \(/);
  await fadedIn();
  await shot('20-cpp-thread-names');
  assert.match(hover, /thread \d \(main::\$_0::operator\(\)\)/);
  assert.doesNotMatch(hover, /_ZNSt/, 'a mangled name');
  await page.keyboard.press('Escape');
  // The Problems panel's related locations are the program's own: none of
  // the libstdc++ frames that call the lambda.
  const text = await problemsOf('counter.cpp', 'the other access', '20b-cpp-related');
  assert.match(text, /counter\.cpp\s*\[Ln 16, Col \d+\]\s*:\s*the other access/);
  assert.doesNotMatch(text, /std_thread\.h|invoke\.h/, 'a related location in a libstdc++ header');
});

/**
 * Opens the Problems panel filtered to name, waits for a row with `has`,
 * takes the screenshot shot and returns the rows' text; the panel is
 * closed again, unfiltered.
 */
async function problemsOf(name, has, shotName) {
  await page.keyboard.press('Control+Shift+M');
  // The visible filter box: once the Output view has been shown, its own
  // filter box (hidden now) comes first in the page.
  const filter = page.locator('[placeholder^="Filter (e.g."]:visible').first();
  await filter.fill(name);
  const rows = page.locator('.markers-panel .monaco-list-row');
  // Filtered once the first row is the file's: the rows before may be any
  // file's, with the same kind of text.
  await expectVisible(rows.first().filter({ hasText: name }), `${name} first in the Problems panel`);
  await expectVisible(rows.filter({ hasText: has }).first(), `${name}'s problems`);
  await shot(shotName);
  const text = (await rows.allInnerTexts()).join('\n');
  await filter.fill('');
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('View: Close Panel');
  await page.keyboard.press('Enter');
  return text;
}

test("races inside std::map show once, at the program's call, naming the call", async () => {
  const hover = await keyboardHover('shared_map.cpp', 'table[base + i] = i;', /spec-violated[\s\S]*inside std::map::operator\[\]/);
  await fadedIn();
  await shot('21-library-races');
  assert.match(hover, /called from fill \(line 12\)/);
  assert.match(hover, /more races inside the library's code, between the same two calls/);
  await page.keyboard.press('Escape');
  // One squiggle on the insert's line stands for them all, in the Problems
  // panel too, where no place of a race is in a header of libstdc++ or in
  // augur's runtime. (A failure with no frame of the program's, as a
  // static std::map's destructor at exit, stays in the header.)
  const text = await problemsOf('shared_map.cpp', 'inside std::map::operator[]', '21b-library-races-problems');
  assert.match(text, /shared_map\.cpp\s*\[Ln 12, Col \d+\]\s*:\s*the other access/);
  assert.doesNotMatch(text, /(stl_tree\.h|stl_map\.h|tree\.cc|new_allocator\.h)\s*\[Ln [^\]]*\]\s*:\s*(the other access|this access|the harmful order|the racing object)/,
    "a race's related location in the library");
});

test('forty races published in paced rounds all arrive classified, one problem each', async () => {
  // counters.c: forty counters bumped by two workers, forty output-differs
  // races. The server sends their verdicts in rounds, not one publication
  // each; the last round comes with the end of the analysis.
  await keyboardHover('counters.c', 'c39++', 'output-differs');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+M');
  const filter = page.locator('[placeholder^="Filter (e.g."]:visible').first();
  await filter.fill('counters.c');
  const rows = page.locator('.markers-panel .monaco-list-row');
  // The file's row counts its problems.
  await expectVisible(rows.first().filter({ hasText: /counters\.c\s*40\s*$/ }), 'counters.c first in the Problems panel, with forty problems');
  await shot('22-paced-verdicts');
  const text = (await rows.allInnerTexts()).join('\n');
  assert.match(text, /output-differs/);
  assert.doesNotMatch(text, /classifying/, 'a race still classifying after its verdict');
  await filter.fill('');
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('View: Close Panel');
  await page.keyboard.press('Enter');
});

test("the settings editor says how much detection's stages after the plan may run", async () => {
  // augur.exploreInstructions' description is package.json's, which
  // analyzer/settings' test keeps equal to the settings table.
  await page.keyboard.press('Escape');
  await page.keyboard.press('Control+Shift+P');
  await page.keyboard.type('Preferences: Open Settings (UI)');
  await page.keyboard.press('Enter');
  await expectVisible(page.locator('.settings-editor .settings-header'), 'the settings editor');
  await page.keyboard.type('augur.exploreInstructions');
  const desc = page.locator('.settings-editor .setting-item-contents', { hasText: 'a floor that falls to one run at 50000000' }).first();
  await expectVisible(desc, "augur.exploreInstructions' description");
  await settled(desc);
  await shot('15-settings');
});
