-- editors/nvim/lua/tagcheck.lua — Neovim (0.7 and later) setup for tagcheck's language server:
-- starts `tagcheck --lsp` for C buffers, one client per project root (the folder holding
-- compile_commands.json, directly or in build/, or .git), using vim.lsp.start where it exists
-- (0.8+) and vim.lsp.start_client + buf_attach_client on 0.7. Findings appear as diagnostics
-- with source "tagcheck" and the rule id as code.
--
--   require('tagcheck').setup({
--     cmd = { 'tagcheck', '--lsp' },          -- add '-p', 'build' to name the database folder
--     filetypes = { 'c', 'cpp' },             -- Neovim types *.h as cpp by default
--     init_options = { debounceMs = 200 },    -- quiet period after an edit before analyzing
--   })
local M = {}

local defaults = {
  cmd = { 'tagcheck', '--lsp' },
  filetypes = { 'c', 'cpp' },
  root_markers = { 'compile_commands.json', 'build/compile_commands.json', '.git' },
  init_options = vim.empty_dict(),
  on_exit = nil,
}

local clients = {} -- root folder -> client id (Neovim 0.7 path only)

-- The nearest folder above fname holding one of the markers, else fname's own folder.
function M.root_dir(fname, markers)
  local dir = vim.fn.fnamemodify(fname, ':p:h')
  while true do
    for _, marker in ipairs(markers) do
      if vim.loop.fs_stat(dir .. '/' .. marker) then
        return dir
      end
    end
    local parent = vim.fn.fnamemodify(dir, ':h')
    if parent == dir then
      return vim.fn.fnamemodify(fname, ':p:h')
    end
    dir = parent
  end
end

-- Starts (or reuses) the client for buffer bufnr.
function M.attach(bufnr, cfg)
  local fname = vim.api.nvim_buf_get_name(bufnr)
  if fname == '' or vim.bo[bufnr].buftype ~= '' then
    return
  end
  local root = M.root_dir(fname, cfg.root_markers)
  local config = {
    name = 'tagcheck',
    cmd = cfg.cmd,
    root_dir = root,
    init_options = cfg.init_options,
    on_exit = cfg.on_exit,
  }
  if vim.lsp.start then
    vim.lsp.start(config, { bufnr = bufnr })
    return
  end
  local id = clients[root]
  if not id or not vim.lsp.get_client_by_id(id) then
    id = vim.lsp.start_client(config)
    clients[root] = id
  end
  if id then
    vim.lsp.buf_attach_client(bufnr, id)
  end
end

function M.setup(opts)
  local cfg = vim.tbl_deep_extend('force', defaults, opts or {})
  local group = vim.api.nvim_create_augroup('tagcheck_lsp', { clear = true })
  vim.api.nvim_create_autocmd('FileType', {
    group = group,
    pattern = cfg.filetypes,
    callback = function(args)
      M.attach(args.buf, cfg)
    end,
  })
end

return M
