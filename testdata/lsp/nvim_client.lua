-- Drives Neovim's built-in LSP client (Neovim 0.7 and later) against
-- `augur lsp`, headless: open the program, wait for augur's final
-- diagnostics, add a comment line at the top and :write (a save that
-- leaves the code unchanged), wait for the diagnostics to follow, and
-- write everything Neovim received as JSON. Run by lsp/neovim_test.go:
--   AUGUR_BIN=... AUGUR_FILE=... AUGUR_OUT=... nvim --headless -u NONE -c 'luafile nvim_client.lua'
local augur = os.getenv('AUGUR_BIN')
local file = os.getenv('AUGUR_FILE')
local R = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_result.lua')
local result, finish = R.result, R.finish

vim.cmd('set noswapfile')
vim.cmd('edit ' .. vim.fn.fnameescape(file))
local buf = vim.api.nvim_get_current_buf()
local id = vim.lsp.start_client({
  name = 'augur',
  cmd = { augur, 'lsp' },
  root_dir = vim.fn.fnamemodify(file, ':h'),
})
if not id then
  return finish('could not start augur lsp')
end
vim.lsp.buf_attach_client(buf, id)

-- settled reports whether augur's diagnostics are final: some are there
-- and none is still classifying.
local function settled(min_line)
  local ds = vim.diagnostic.get(buf)
  if #ds == 0 then
    return false
  end
  for _, d in ipairs(ds) do
    if d.code == 'classifying…' then
      return false
    end
    if min_line and d.lnum < min_line then
      return false
    end
  end
  return true
end

local function snapshot(name)
  local list = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    table.insert(list, {
      lnum = d.lnum, col = d.col, end_col = d.end_col, severity = d.severity,
      code = d.code, source = d.source, message = d.message,
    })
  end
  table.insert(result.phases, { name = name, diagnostics = list })
end

if not vim.wait(120000, function() return settled(nil) end, 100) then
  return finish('no final diagnostics after opening')
end
snapshot('open')

local first = vim.diagnostic.get(buf)[1].lnum
for _, d in ipairs(vim.diagnostic.get(buf)) do
  if d.lnum < first then first = d.lnum end
end
vim.api.nvim_buf_set_lines(buf, 0, 0, false, { '// a comment line added in Neovim' })
vim.cmd('write')
if not vim.wait(120000, function() return settled(first + 1) end, 100) then
  return finish('diagnostics did not follow the save')
end
snapshot('save')
finish(nil)
