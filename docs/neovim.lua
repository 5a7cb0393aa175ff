-- augur in Neovim (0.7 and later), with Neovim's built-in LSP client.
-- Load it from your init.lua (`dofile('/path/to/augur/docs/neovim.lua')`)
-- or copy it there. It starts one `augur lsp` per workspace (the directory
-- of the nearest augur.toml above the file, or the current directory) and
-- attaches every C and C++ buffer in it. `augur` must be on PATH, or set
-- vim.g.augur_cmd = { '/path/to/augur', 'lsp' } before loading this.
--
-- Racing lines get code lenses (Replay evidence, Show interleaving, Show
-- output difference): they are refreshed when a buffer is entered, saved
-- or left insert mode, and <leader>al runs the lens under the cursor
-- (vim.g.augur_lens_key changes the key; false maps none).
local clients = {}

-- on_attach shows augur's code lenses in the buffer and maps the key that
-- runs them.
local function on_attach(client, buf)
  if not client.server_capabilities or not client.server_capabilities.codeLensProvider then
    if not (client.resolved_capabilities and client.resolved_capabilities.code_lens) then
      return
    end
  end
  vim.api.nvim_create_autocmd({ 'BufEnter', 'BufWritePost', 'InsertLeave', 'CursorHold' }, {
    buffer = buf,
    callback = function() vim.lsp.codelens.refresh() end,
  })
  local key = vim.g.augur_lens_key
  if key == nil then key = '<leader>al' end
  if key then
    vim.api.nvim_buf_set_keymap(buf, 'n', key, '<cmd>lua vim.lsp.codelens.run()<CR>',
      { noremap = true, silent = true, desc = 'augur: run the code lens on this line' })
  end
  vim.lsp.codelens.refresh()
end

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
      -- Declaring refresh support makes augur ask for lenses again after
      -- each analysis (the handler below).
      local caps = vim.lsp.protocol.make_client_capabilities()
      caps.workspace = caps.workspace or {}
      caps.workspace.codeLens = { refreshSupport = true }
      id = vim.lsp.start_client({
        capabilities = caps,
        name = 'augur',
        cmd = vim.g.augur_cmd or { 'augur', 'lsp' },
        root_dir = root,
        on_attach = on_attach,
        handlers = {
          -- augur asks for lenses again after each analysis; Neovim 0.7
          -- has no handler of its own for that request.
          ['workspace/codeLens/refresh'] = function()
            vim.lsp.codelens.refresh()
            return vim.NIL
          end,
        },
      })
      clients[root] = id
    end
    if id then
      vim.lsp.buf_attach_client(args.buf, id)
    end
  end,
})
