// The extension's code with VS Code and the language client stood in for (no VS Code runs here): activating
// starts the client with the configured server command over stdio for .lg documents, a shipped edition of an
// installed package is made read-only when it becomes the active editor and no other file is, and
// deactivating stops the client. Run by scripts/check: node test/extension.test.js
"use strict";

const assert = require("assert");
const Module = require("module");
const path = require("path");

const calls = { commands: [], started: [], stopped: 0, listeners: [] };
const editor = (fsPath, languageId = "lg") => ({ document: { languageId, uri: { fsPath } } });
const fakes = {
    vscode: {
        workspace: {
            getConfiguration: (section) => ({
                get: (key, fallback) => (section === "landlordDsl" && key === "server.command" ? ["/venv/bin/landlord-dsl", "lsp"] : fallback),
            }),
        },
        window: {
            activeTextEditor: undefined,
            onDidChangeActiveTextEditor: (listener) => {
                calls.listeners.push(listener);
                return { dispose() {} };
            },
            showErrorMessage: (message) => calls.commands.push(["error", message]),
        },
        commands: { executeCommand: async (...args) => calls.commands.push(args) },
    },
    "vscode-languageclient/node": {
        TransportKind: { stdio: 0 },
        LanguageClient: class {
            constructor(id, name, server, options) {
                calls.started.push({ id, name, server, options });
            }
            async start() {}
            async stop() {
                calls.stopped += 1;
            }
        },
    },
};
const load = Module._load;
Module._load = function (request, ...rest) {
    return request in fakes ? fakes[request] : load.call(this, request, ...rest);
};

(async () => {
    const extension = require(path.join(__dirname, "..", "extension.js"));
    const context = { subscriptions: [] };
    await extension.activate(context);

    assert.strictEqual(calls.started.length, 1);
    const { id, server, options } = calls.started[0];
    assert.strictEqual(id, "landlordDsl");
    assert.deepStrictEqual(server, { command: "/venv/bin/landlord-dsl", args: ["lsp"], transport: 0 });
    assert.deepStrictEqual(options.documentSelector.map((s) => s.language), ["lg", "lg"]);
    assert.strictEqual(context.subscriptions.length, 1);

    const [changed] = calls.listeners;
    await changed(editor("/venv/lib/python3.12/site-packages/landlord_dsl/editions/landlords-game-1906.lg"));
    await changed(editor("C:\\venv\\Lib\\site-packages\\landlord_dsl\\editions\\variants\\monopoly-1933-paupers.lg"));
    await changed(editor("/home/me/landlord-dsl/editions/landlords-game-1906.lg")); // a checkout: editable
    await changed(editor("/home/me/house-rules.lg"));
    await changed(editor("/venv/lib/python3.12/site-packages/landlord_dsl/editions/notes.txt", "plaintext"));
    await changed(undefined);
    assert.deepStrictEqual(calls.commands, [
        ["workbench.action.files.setActiveEditorReadonlyInSession"],
        ["workbench.action.files.setActiveEditorReadonlyInSession"],
    ]);

    await extension.deactivate();
    assert.strictEqual(calls.stopped, 1);
    console.log("✓ extension.js: the client starts and stops, shipped editions open read-only");
})().catch((error) => {
    console.error(error);
    process.exit(1);
});
