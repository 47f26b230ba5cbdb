// editors/vscode/extension.js — a minimal VS Code extension that runs `tagcheck --lsp` for C
// (and C++) files through Microsoft's vscode-languageclient, passing the settings of
// package.json, and tells the server when a compile_commands.json changes.
'use strict';

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');

let client;

function serverArgs(cfg) {
  const args = ['--lsp'];
  const dir = cfg.get('compileCommandsDir', '');
  if (dir) args.push('-p', dir);
  return args.concat(cfg.get('extraArgs', []));
}

function activate(context) {
  const cfg = vscode.workspace.getConfiguration('tagcheck');
  const serverOptions = { command: cfg.get('path', 'tagcheck'), args: serverArgs(cfg) };
  const clientOptions = {
    documentSelector: [
      { scheme: 'file', language: 'c' },
      { scheme: 'file', language: 'cpp' },
    ],
    initializationOptions: { debounceMs: cfg.get('debounceMs', 200) },
    synchronize: {
      fileEvents: vscode.workspace.createFileSystemWatcher('**/compile_commands.json'),
    },
  };
  client = new LanguageClient('tagcheck', 'tagcheck', serverOptions, clientOptions);
  client.start();
  context.subscriptions.push(
    vscode.workspace.onDidChangeConfiguration((e) => {
      if (e.affectsConfiguration('tagcheck')) {
        vscode.window.showInformationMessage('tagcheck: reload the window to apply the new settings.');
      }
    }),
  );
}

function deactivate() {
  return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
