-- Waits for augur's diagnostics in the current buffer of a Neovim set up
-- by docs/neovim.lua, then writes how many arrived to AUGUR_OUT and quits
-- (stopping augur first, as nvim_result.lua's finish does).
-- Run by lsp/neovim_test.go.
local R = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_result.lua')
local buf = vim.api.nvim_get_current_buf()
local ok = vim.wait(120000, function()
  local ds = vim.diagnostic.get(buf)
  if #ds == 0 then return false end
  for _, d in ipairs(ds) do
    if d.code == 'classifying…' then return false end
  end
  return true
end, 100)
-- The code lenses docs/neovim.lua sets up arrive on the racing lines.
local lenses = {}
vim.wait(60000, function()
  lenses = vim.lsp.codelens.get(buf)
  return #lenses > 0
end, 100)
local titles = {}
for _, l in ipairs(lenses) do
  if l.command then table.insert(titles, l.command.title) end
end
R.result.settled = ok
R.result.count = #vim.diagnostic.get(buf)
R.result.clients = #vim.lsp.get_active_clients()
R.result.lenses = titles
R.finish(nil)
