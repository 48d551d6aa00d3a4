-- muster's language server in Neovim 0.7 or later, without plugins: every muster data
-- file opened joins one `muster lsp` client.
local muster_client = nil
vim.api.nvim_create_autocmd({ "BufReadPost", "BufNewFile" }, {
  pattern = {
    "*.system.ron", "*.counters.ron", "*.map.ron", "*.scenario.ron",
    "*.system.json", "*.counters.json", "*.map.json", "*.scenario.json",
  },
  callback = function(args)
    if muster_client == nil or vim.lsp.get_client_by_id(muster_client) == nil then
      muster_client = vim.lsp.start_client({
        name = "muster",
        cmd = { "muster", "lsp" },
        root_dir = vim.fn.getcwd(),
      })
    end
    if muster_client ~= nil then
      vim.lsp.buf_attach_client(args.buf, muster_client)
    end
  end,
})
