-- Drives Neovim's built-in LSP client (0.7) against `augur lsp` through the
-- editor flows of lsp/neovim_test.go, headless, in one session:
--   1. header: counter.h opened alone gets the no-target note;
--   2. included: opening counter_main.c, which includes it, replaces the
--      note by the race in the header;
--   3. changed: a line added at the top of the header, not saved, with
--      incremental sync off (Neovim then sends the whole document on each
--      change, as formatters and reloads do in other clients), moves the
--      race down by one line;
--   4. replay: Replay evidence, from the code action, in a client that
--      cannot show documents, arrives as a window/showMessage;
--   5. lenses: the code lenses of the racing line.
-- It writes what Neovim saw as JSON to AUGUR_OUT.
local augur = os.getenv('AUGUR_BIN')
local root = os.getenv('AUGUR_ROOT')
local R = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_result.lua')
local result, finish = R.result, R.finish
result.messages = {}

-- Keep every window/showMessage (and still show it as Neovim does).
local show = vim.lsp.handlers['window/showMessage']
vim.lsp.handlers['window/showMessage'] = function(err, res, ctx, config)
  table.insert(result.messages, res.message)
  return show(err, res, ctx, config)
end

vim.cmd('set noswapfile')
vim.cmd('cd ' .. vim.fn.fnameescape(root))
local id = vim.lsp.start_client({
  name = 'augur',
  cmd = { augur, 'lsp' },
  root_dir = root,
  flags = { allow_incremental_sync = false, debounce_text_changes = 0 },
})
if not id then
  return finish('could not start augur lsp')
end
local client = vim.lsp.get_client_by_id(id)

local function open(name)
  vim.cmd('edit ' .. vim.fn.fnameescape(root .. '/' .. name))
  local buf = vim.api.nvim_get_current_buf()
  vim.lsp.buf_attach_client(buf, id)
  return buf
end

local function with_code(buf, code)
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    if d.code == code then
      return d
    end
  end
  return nil
end

local function snapshot(name, buf)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, { lnum = d.lnum, code = d.code, source = d.source, message = d.message })
  end
  table.insert(result.phases, { name = name, diagnostics = list })
end

-- 1. The header alone.
local header = open('counter.h')
if not vim.wait(60000, function() return with_code(header, 'no-target') ~= nil end, 50) then
  return finish('no no-target note on the header opened alone')
end
snapshot('header', header)

-- 2. The program that includes it.
open('counter_main.c')
if not vim.wait(120000, function()
  return with_code(header, 'no-target') == nil and with_code(header, 'output-differs') ~= nil
end, 100) then
  return finish('the header never showed its race once counter_main.c was open')
end
snapshot('included', header)

-- 3. A whole-document change of the header, not saved.
vim.cmd('buffer ' .. header)
local before = with_code(header, 'output-differs').lnum
vim.api.nvim_buf_set_lines(header, 0, 0, false, { '/* a line added in Neovim, not saved */' })
if not vim.wait(30000, function()
  local d = with_code(header, 'output-differs')
  return d ~= nil and d.lnum == before + 1
end, 50) then
  snapshot('changed', header)
  return finish('the race did not move with the whole-document change')
end
snapshot('changed', header)

-- 4. Replay evidence from the code action; the client cannot show documents.
local line = with_code(header, 'output-differs').lnum
local uri = vim.uri_from_bufnr(header)
local actions = client.request_sync('textDocument/codeAction', {
  textDocument = { uri = uri },
  range = { start = { line = line, character = 0 }, ['end'] = { line = line, character = 0 } },
  context = { diagnostics = {} },
}, 20000, header)
if not actions or actions.err then
  return finish('codeAction failed: ' .. vim.inspect(actions))
end
local replay
for _, a in ipairs(actions.result or {}) do
  if a.title:find('^Replay evidence') then
    replay = a
  end
end
if not replay then
  return finish('no Replay evidence action: ' .. vim.inspect(actions.result))
end
local res = client.request_sync('workspace/executeCommand', replay.command, 120000, header)
if not res or res.err then
  return finish('the replay failed: ' .. vim.inspect(res))
end
result.replay = res.result
if not vim.wait(10000, function()
  for _, m in ipairs(result.messages) do
    if m:find('replay of race', 1, true) then return true end
  end
  return false
end, 50) then
  return finish('no message after the replay')
end

-- 5. Code lenses.
vim.lsp.codelens.refresh()
if not vim.wait(20000, function() return #vim.lsp.codelens.get(header) > 0 end, 50) then
  return finish('no code lenses')
end
result.lenses = {}
for _, l in ipairs(vim.lsp.codelens.get(header)) do
  table.insert(result.lenses, { lnum = l.range.start.line, title = l.command and l.command.title or '' })
end

finish(nil)
