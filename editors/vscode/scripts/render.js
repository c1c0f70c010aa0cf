// Renders a .lg file as VS Code shows it with this extension: highlighted by the extension's TextMate grammar
// in VS Code's engine (scripts/tokenize.js), in the colours of VS Code's default theme (Dark+), with the
// problems the language server publishes underlined and the first one's message shown as a hover would.
// Prints an HTML page; scripts/screenshot turns it into the picture in docs/editing.md.
//
//     node scripts/render.js FILE.lg PROBLEMS.json > page.html
//
// PROBLEMS.json: [{"line": 1-based, "column": 1-based, "end": 1-based exclusive, "message": "...", "hint": "...",
// "fix": the title of its quick fix, if it has one}]
"use strict";

const fs = require("fs");
const path = require("path");
const { execFileSync } = require("child_process");

// Dark+ colours by scope prefix; the innermost scope with a colour wins.
const COLOURS = [
    ["comment", "#6A9955"],
    ["punctuation.section.interpolation", "#569CD6"],
    ["constant.character.escape", "#D7BA7D"],
    ["string", "#CE9178"],
    ["constant.numeric", "#B5CEA8"],
    ["constant.language", "#569CD6"],
    ["constant.other.confidence", "#4FC1FF"],
    ["storage.type", "#569CD6"],
    ["keyword.operator.word", "#569CD6"],
    ["keyword.operator", "#D4D4D4"],
    ["keyword.control", "#C586C0"],
    ["support.function", "#DCDCAA"],
    ["entity.name.function", "#DCDCAA"],
    ["entity.name.type", "#4EC9B0"],
    ["variable", "#9CDCFE"],
];

function colour(scopes) {
    for (let i = scopes.length - 1; i >= 0; i--) {
        const found = COLOURS.find(([prefix]) => scopes[i] === prefix || scopes[i].startsWith(prefix + "."));
        if (found) return found[1];
    }
    return "#D4D4D4";
}

const escape = (text) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");

function main([file, problemsFile]) {
    const tokens = JSON.parse(
        execFileSync("node", [path.join(__dirname, "tokenize.js"), file], { encoding: "utf-8" }),
    )[file];
    const problems = JSON.parse(fs.readFileSync(problemsFile, "utf-8"));
    const lines = fs.readFileSync(file, "utf-8").replace(/\n$/, "").split("\n");
    const rows = lines.map((text, number) => {
        const cells = tokens
            .filter(([line]) => line === number)
            .map(([, start, end, scopes]) => {
                let html = "";
                for (let column = start; column < end; column++) {
                    const wrong = problems.some(
                        (p) => p.line - 1 === number && p.column - 1 <= column && column < p.end - 1,
                    );
                    const style = `color:${colour(scopes)}` + (wrong ? ";text-decoration:underline wavy #F14C4C" : "");
                    html += `<span style="${style}">${escape(text[column])}</span>`;
                }
                return html;
            })
            .join("");
        let row = `<div class="row"><span class="number">${number + 1}</span><span class="code">${cells || " "}</span></div>`;
        const first = problems[0];
        if (first && first.line - 1 === number) {
            const indent = first.column - 1;
            row +=
                `<div class="hover" style="margin-left:calc(${indent}ch + 4.5em)">` +
                `<div>${escape(first.message)} <span class="source">landlord-dsl</span></div>` +
                (first.hint ? `<div class="hint">hint: ${escape(first.hint)}</div>` : "") +
                (first.fix ? `<div class="fix">Quick Fix… &nbsp; ${escape(first.fix)}</div>` : "") +
                "</div>";
        }
        return row;
    });
    const name = path.basename(file);
    process.stdout.write(`<!doctype html><meta charset="utf-8"><style>
body { margin: 0; background: #1E1E1E; font: 14px/20px "DejaVu Sans Mono", monospace; color: #D4D4D4; }
.tabs { background: #252526; height: 35px; display: flex; }
.tab { background: #1E1E1E; color: #FFFFFF; padding: 0 16px; line-height: 35px; font-family: "DejaVu Sans", sans-serif; font-size: 13px; border-top: 1px solid #007ACC; }
.tab .dot { color: #F14C4C; margin-left: 8px; }
.editor { padding: 6px 0; }
.row { white-space: pre; }
.number { display: inline-block; width: 3em; padding-right: 1.5em; text-align: right; color: #858585; }
.hover { position: relative; display: inline-block; margin: 2px 0 4px; padding: 6px 10px; background: #252526; border: 1px solid #454545; font-family: "DejaVu Sans", sans-serif; font-size: 13px; line-height: 19px; white-space: pre; }
.hover .source { color: #9D9D9D; margin-left: 8px; }
.hover .hint { color: #CCCCCC; }
.hover .fix { margin-top: 4px; padding-top: 4px; border-top: 1px solid #454545; color: #3794FF; }
.status { background: #007ACC; color: #FFFFFF; height: 22px; line-height: 22px; padding: 0 10px; font-family: "DejaVu Sans", sans-serif; font-size: 12px; }
</style>
<div class="tabs"><div class="tab">${escape(name)}<span class="dot">●</span></div></div>
<div class="editor">${rows.join("\n")}</div>
<div class="status">${problems.length} problem${problems.length === 1 ? "" : "s"} &nbsp;&nbsp; Landlord rules &nbsp;&nbsp; landlord-dsl lsp</div>
`);
}

main(process.argv.slice(2));
