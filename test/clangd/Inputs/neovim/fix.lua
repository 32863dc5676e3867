-- Neovim's built-in LSP client on a leaky file: attaches torch-clangd to the
-- buffer, waits for its diagnostics in vim.diagnostic.get(), asks for the
-- code actions of every torch finding, applies their edits, writes the file
-- and waits for the findings to go. Written for Debian's Neovim 0.7.
--
--   TORCH_CLANGD=BIN OUT=REPORT nvim --headless --clean -n -i NONE \
--     -c 'luafile fix.lua' FILE
--
-- The report goes to $OUT; any failure exits Neovim with code 1.

local out = assert(io.open(os.getenv('OUT'), 'w'))
local function say(fmt, ...)
  out:write(string.format(fmt, ...) .. '\n')
  out:flush()
end

local function torch_findings(buf)
  local found = {}
  for _, d in ipairs(vim.diagnostic.get(buf)) do
    local code = d.code or (d.user_data and d.user_data.lsp.code)
    if type(code) == 'string' and code:match('^torch%-') then
      d.torch_code = code
      table.insert(found, d)
    end
  end
  table.sort(found, function(a, b)
    return a.lnum < b.lnum or (a.lnum == b.lnum and a.col < b.col)
  end)
  return found
end

-- How many times the server has published diagnostics.
local published = 0
local function on_publish(err, result, ctx, config)
  published = published + 1
  return vim.lsp.diagnostic.on_publish_diagnostics(err, result, ctx, config)
end

local function run()
  local buf = vim.api.nvim_get_current_buf()
  local file = vim.api.nvim_buf_get_name(buf)
  local client_id = vim.lsp.start_client({
    name = 'torch-clangd',
    cmd = { os.getenv('TORCH_CLANGD'), '--background-index=false' },
    root_dir = vim.fn.fnamemodify(file, ':p:h'),
    handlers = { ['textDocument/publishDiagnostics'] = on_publish },
  })
  assert(client_id, 'torch-clangd did not start')
  assert(vim.lsp.buf_attach_client(buf, client_id), 'could not attach')
  say('attached: %s', vim.lsp.get_client_by_id(client_id).name)

  assert(vim.wait(300000, function() return #torch_findings(buf) > 0 end, 50),
         'no torch diagnostics within 300 s')
  local client = vim.lsp.get_client_by_id(client_id)
  local findings = torch_findings(buf)
  say('diagnostics: %d torch findings', #findings)

  local edits = {}
  for _, d in ipairs(findings) do
    say('%d:%d %s %s: %s', d.lnum + 1, d.col + 1, d.source, d.torch_code,
        d.message)
    -- The diagnostic as the server sent it, for the code action context.
    local range = {
      start = { line = d.lnum, character = d.col },
      ['end'] = { line = d.end_lnum, character = d.end_col },
    }
    local lsp_diag = {
      range = range, message = d.message, severity = d.severity,
      source = d.source, code = d.torch_code,
    }
    local responses = vim.lsp.buf_request_sync(buf, 'textDocument/codeAction', {
      textDocument = { uri = vim.uri_from_bufnr(buf) },
      range = range,
      context = { diagnostics = { lsp_diag }, only = { 'quickfix' } },
    }, 20000)
    local action
    for _, response in pairs(responses or {}) do
      for _, a in ipairs(response.result or {}) do
        if a.kind == 'quickfix' and a.edit then
          action = action or a
        end
      end
    end
    assert(action, 'no code action for ' .. d.torch_code)
    say('  code action: %s', action.title)
    local changes = action.edit.documentChanges
    if changes then
      for _, change in ipairs(changes) do
        vim.list_extend(edits, change.edits)
      end
    else
      for _, list in pairs(action.edit.changes) do
        vim.list_extend(edits, list)
      end
    end
  end

  -- All the fixes at once, as they were computed against this text.
  local before = published
  vim.lsp.util.apply_text_edits(edits, buf, client.offset_encoding)
  vim.cmd('write')
  say('applied %d edits and wrote the file', #edits)
  -- The server publishes again for the edited text.
  assert(vim.wait(120000, function()
    return published > before and #torch_findings(buf) == 0
  end, 50), 'the torch findings did not go after the fix')
  say('after the fix: %d torch findings', #torch_findings(buf))

  vim.lsp.stop_client(client_id)
  assert(vim.wait(30000, function() return vim.lsp.client_is_stopped(client_id) end, 50),
         'torch-clangd did not stop')
  say('stopped')
end

local ok, err = pcall(run)
if not ok then
  say('error: %s', err)
  out:close()
  vim.cmd('cquit 1')
end
out:close()
vim.cmd('qall!')
