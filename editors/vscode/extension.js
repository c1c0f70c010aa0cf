// The client half of the extension: it starts the landlord-dsl language server (`landlord-dsl lsp`,
// from `pip install 'landlord-dsl[lsp]'`) for .lg files and stops it with the editor. Highlighting,
// brackets, comments and snippets are declared in package.json and need no code.
"use strict";

const vscode = require("vscode");
const { LanguageClient, TransportKind } = require("vscode-languageclient/node");

// A shipped edition inside an installed package (go to definition and references open them): read-only,
// as editing it would change every game played with the package. A checkout's editions/ stays editable.
const SHIPPED = /[\\/]landlord_dsl[\\/]editions[\\/][^\\/]+(?:[\\/][^\\/]+)*\.lg$/;

let client;

function lockShipped(editor) {
    if (editor && editor.document.languageId === "lg" && SHIPPED.test(editor.document.uri.fsPath)) {
        return vscode.commands.executeCommand("workbench.action.files.setActiveEditorReadonlyInSession");
    }
    return undefined;
}

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
    context.subscriptions.push(vscode.window.onDidChangeActiveTextEditor(lockShipped));
    lockShipped(vscode.window.activeTextEditor);
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
