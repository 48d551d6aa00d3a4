-- Test helper: waits up to 20 s for diagnostics in the current buffer, writes one line
-- per diagnostic (code, 0-based line, 0-based column, message) to $MUSTER_NVIM_OUT,
-- and quits.
local out = os.getenv("MUSTER_NVIM_OUT")
vim.wait(20000, function()
  return #vim.diagnostic.get(0) > 0
end, 50)
local lines = {}
for _, d in ipairs(vim.diagnostic.get(0)) do
  local code = d.code
  if code == nil and d.user_data and d.user_data.lsp then
    code = d.user_data.lsp.code
  end
  local message = string.gsub(d.message, "\n", " ")
  table.insert(lines, string.format("%s\t%d\t%d\t%s", tostring(code), d.lnum, d.col, message))
end
vim.fn.writefile(lines, out)
vim.cmd("qa!")
