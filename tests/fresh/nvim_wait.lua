-- tests/fresh/nvim_wait.lua — sourced after the docs' init.lua has opened a file: waits (60 s at
-- most) for a language server's diagnostics on it, writes `diagnostics N` and each one's
-- source, code and line to /tmp/nvim-diagnostics, then quits.
local buf = vim.api.nvim_get_current_buf()
vim.wait(60000, function()
  return #vim.diagnostic.get(buf) > 0
end, 50)
local out = { 'diagnostics ' .. #vim.diagnostic.get(buf) }
for _, d in ipairs(vim.diagnostic.get(buf)) do
  table.insert(out, string.format('%s %s:%d', tostring(d.source), tostring(d.code), d.lnum + 1))
end
vim.fn.writefile(out, '/tmp/nvim-diagnostics')
vim.cmd('qa!')
