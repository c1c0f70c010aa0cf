// The client half of the extension: it starts the landlord-dsl language server (`landlord-dsl lsp`,
// from `pip install 'landlord-dsl[lsp]'`) for .lg files and stops it with the editor. Highlighting,
// brackets, comments and snippets are declared in package.json and need no code.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

let client;

function activate(context) {
    const [command, ...args] = vscode.workspace
        .getConfiguration("landlordDsl")
        .get("server.command", ["landlord-dsl", "lsp"]);
    const serverOptions = { command, args, transport: TransportKind.stdio };
    const clientOptions = {
        documentSelector: [
            { scheme: "file", language: "lg" },
            { scheme: "untitled", language: "lg" },
        ],
    };
    client = new LanguageClient("landlordDsl", "Landlord rules", serverOptions, clientOptions);
    return client.start().catch((error) => {
        vscode.window.showErrorMessage(
            `Could not start '${command} ${args.join(" ")}' (install it with pip install 'landlord-dsl[lsp]', ` +
                `or set landlordDsl.server.command): ${error.message}`,
        );
    });
}

function deactivate() {
    return client ? client.stop() : undefined;
}

module.exports = { activate, deactivate };
