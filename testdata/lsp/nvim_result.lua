-- What the Neovim scripts of lsp/neovim_test.go share: the result table
-- and finish, which stops the language servers, writes the result as JSON
-- to AUGUR_OUT and quits.
--   local R = dofile(vim.fn.fnamemodify(debug.getinfo(1, 'S').source:sub(2), ':h') .. '/nvim_result.lua')
local M = { result = { phases = {} } }

-- stop_servers asks every client's server to shut down and exit and waits
-- for its process to end (Neovim forgets a client when its process
-- exits). Quitting at once would leave the server running after Neovim,
-- still writing to the test's directories while the test removes them.
-- It reports whether every server ended within the wait.
local function stop_servers()
  local clients = vim.lsp.get_active_clients()
  for _, c in ipairs(clients) do
    c.stop()
  end
  return vim.wait(20000, function()
    for _, c in ipairs(clients) do
      if vim.lsp.get_client_by_id(c.id) ~= nil then return false end
    end
    return true
  end, 50)
end

function M.finish(err)
  M.result.error = err
  M.result.servers_stopped = stop_servers()
  local f = io.open(os.getenv('AUGUR_OUT'), 'w')
  f:write(vim.fn.json_encode(M.result))
  f:close()
  vim.cmd('qa!')
end

return M
