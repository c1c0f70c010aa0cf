// Tokenizes .lg files with the extension's TextMate grammar in VS Code's own engine (vscode-textmate
// with the Oniguruma regular expressions VS Code uses) and prints, as JSON, each file's tokens:
// {"FILE": [[line, start column, end column, [scopes...]], ...]} (0-based, end exclusive).
// Used by tests/test_vscode_extension.py (against the Pygments lexer) and scripts/screenshot.
//
//     node scripts/tokenize.js FILE.lg...
"use strict";

const fs = require("fs");
const path = require("path");
const vsctm = require("vscode-textmate");
const oniguruma = require("vscode-oniguruma");

const root = path.join(__dirname, "..");
const wasm = fs.readFileSync(path.join(root, "node_modules", "vscode-oniguruma", "release", "onig.wasm")).buffer;

async function main(files) {
    await oniguruma.loadWASM(wasm);
    const registry = new vsctm.Registry({
        onigLib: Promise.resolve({
            createOnigScanner: (patterns) => new oniguruma.OnigScanner(patterns),
            createOnigString: (text) => new oniguruma.OnigString(text),
        }),
        loadGrammar: async (scopeName) => {
            if (scopeName !== "source.lg") return null;
            const file = path.join(root, "syntaxes", "lg.tmLanguage.json");
            return vsctm.parseRawGrammar(fs.readFileSync(file, "utf-8"), file);
        },
    });
    const grammar = await registry.loadGrammar("source.lg");
    const result = {};
    for (const file of files) {
        const tokens = [];
        let state = vsctm.INITIAL;
        fs.readFileSync(file, "utf-8").split("\n").forEach((line, number) => {
            const found = grammar.tokenizeLine(line, state);
            for (const token of found.tokens) {
                tokens.push([number, token.startIndex, Math.min(token.endIndex, line.length), token.scopes]);
            }
            state = found.ruleStack;
        });
        result[file] = tokens;
    }
    process.stdout.write(JSON.stringify(result));
}

main(process.argv.slice(2)).catch((error) => {
    console.error(error);
    process.exit(1);
});
