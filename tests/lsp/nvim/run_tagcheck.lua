-- tests/lsp/nvim/run_tagcheck.lua — the Neovim side of test_lsp_nvim: loads the editors/nvim
-- setup, opens TAGCHECK_FILE (a fixture next to its compile_commands.json), waits for tagcheck's
-- diagnostics, fixes the bug in the buffer WITHOUT saving and waits for them to go away, then
-- stops the server and writes what it saw to TAGCHECK_OUT, one fact per line, for the C test to
-- assert on. Never exits without writing the file.
local out = os.getenv('TAGCHECK_OUT')
local timeout = tonumber(os.getenv('TAGCHECK_TIMEOUT_MS') or '30000')
local facts = {}
local function fact(s)
  table.insert(facts, s)
end

local ok, err = pcall(function()
  package.path = os.getenv('TAGCHECK_REPO') .. '/editors/nvim/lua/?.lua;' .. package.path
  local exit_code = nil
  require('tagcheck').setup({
    cmd = { os.getenv('TAGCHECK_BIN'), '--lsp' },
    on_exit = function(code)
      exit_code = code
    end,
  })
  vim.cmd('filetype on')
  vim.cmd('edit ' .. vim.fn.fnameescape(os.getenv('TAGCHECK_FILE')))
  local buf = vim.api.nvim_get_current_buf()
  fact('nvim ' .. tostring(vim.version().major) .. '.' .. tostring(vim.version().minor))

  local got = vim.wait(timeout, function()
    return #vim.diagnostic.get(buf) > 0
  end, 20)
  fact('opened ' .. tostring(got))
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local href = d.user_data and d.user_data.lsp and d.user_data.lsp.codeDescription
      and d.user_data.lsp.codeDescription.href or ''
    fact(string.format('diag\t%s\t%d\t%d\t%d\t%s\t%s', tostring(d.code), d.lnum + 1, d.col,
      d.severity, tostring(d.source), href))
  end

  local lines = vim.api.nvim_buf_get_lines(buf, 0, -1, false)
  for i, l in ipairs(lines) do
    lines[i] = (l:gsub('dt_zeros%(dt_cpu%(%),', 'dt_zeros(acc,'))
  end
  vim.api.nvim_buf_set_lines(buf, 0, -1, false, lines)
  got = vim.wait(timeout, function()
    return #vim.diagnostic.get(buf) == 0
  end, 20)
  fact('fixed-unsaved ' .. tostring(got) .. ' modified ' .. tostring(vim.bo[buf].modified))

  for _, client in pairs(vim.lsp.get_active_clients()) do
    client.stop()
  end
  vim.wait(timeout, function()
    return exit_code ~= nil
  end, 20)
  fact('server-exit ' .. tostring(exit_code))
end)
if not ok then
  fact('lua-error ' .. tostring(err))
end
vim.fn.writefile(facts, out)
vim.cmd('qa!')
