-- augur in Neovim (0.7 and later), with Neovim's built-in LSP client.
-- Load it from your init.lua (`dofile('/path/to/augur/docs/neovim.lua')`)
-- or copy it there. It starts one `augur lsp` per workspace (the directory
-- of the nearest augur.toml above the file, or the current directory) and
-- attaches every C and C++ buffer in it. `augur` must be on PATH, or set
-- vim.g.augur_cmd = { '/path/to/augur', 'lsp' } before loading this.
local clients = {}

local function root_of(file)
  local toml = vim.fn.findfile('augur.toml', vim.fn.fnamemodify(file, ':p:h') .. ';')
  if toml ~= '' then
    return vim.fn.fnamemodify(toml, ':p:h')
  end
  return vim.fn.getcwd()
end

vim.api.nvim_create_autocmd('FileType', {
  pattern = { 'c', 'cpp' },
  callback = function(args)
    local root = root_of(vim.api.nvim_buf_get_name(args.buf))
    local id = clients[root]
    if not id or not vim.lsp.get_client_by_id(id) then
      id = vim.lsp.start_client({
        name = 'augur',
        cmd = vim.g.augur_cmd or { 'augur', 'lsp' },
        root_dir = root,
      })
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
