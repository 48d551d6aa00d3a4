// Starts `muster lsp` for muster's data files, RON and JSON.
const vscode = require("vscode");
const { LanguageClient } = require("vscode-languageclient/node");

let client;

function activate(context) {
  const command = vscode.workspace.getConfiguration("muster").get("path", "muster");
  const server = { command, args: ["lsp"] };
  const patterns = ["system", "counters", "map", "scenario"].flatMap((kind) => [
    `**/*.${kind}.ron`,
    `**/*.${kind}.json`,
  ]);
  client = new LanguageClient(
    "muster",
    "muster",
    { run: server, debug: server },
    { documentSelector: patterns.map((pattern) => ({ scheme: "file", pattern })) }
  );
  context.subscriptions.push(client);
  return client.start();
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
