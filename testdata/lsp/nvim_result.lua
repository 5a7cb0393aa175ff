-- What the Neovim scripts of lsp/neovim_test.go share: the result table
-- and finish, which writes it as JSON to AUGUR_OUT and quits.
--   local R = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_result.lua')
local M = { result = { phases = {} } }

function M.finish(err)
  M.result.error = err
  local f = io.open(os.getenv('AUGUR_OUT'), 'w')
  f:write(vim.fn.json_encode(M.result))
  f:close()
  vim.cmd('qa!')
end

return M
