// Run a Python program under Pyodide in Node, offline (tests/pyodide_support.py).
//
//   node pyodide_run.mjs PYODIDE_DIR PROGRAM.py WHEEL...
//
// Loads Pyodide from PYODIDE_DIR (npm's pyodide package), unpacks each wheel
// into its site-packages, as pip would (no micropip, no network), runs PROGRAM.py and
// writes one JSON object to stdout: the value of the program's last
// expression (a str) as "result", and the milliseconds each stage took,
// wall-clock ("wall") and the Node process's CPU time ("cpu").
// The program's own prints go to stderr.
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { pathToFileURL } from "node:url";

const [pyodideDir, program, ...wheels] = process.argv.slice(2);
const say = (line) => process.stderr.write(line + "\n");
// [wall, cpu] milliseconds since Node started
const now = () => {
    const used = process.cpuUsage();
    return [performance.now(), (used.user + used.system) / 1000];
};
const since = (a, b) => ({ wall: b[0] - a[0], cpu: b[1] - a[1] });
const started = now();
const { loadPyodide } = await import(pathToFileURL(join(pyodideDir, "pyodide.mjs")).href);
const pyodide = await loadPyodide({ indexURL: pyodideDir + "/", stdout: say, stderr: say });
const loaded = now();
const sitePackages = pyodide.runPython("import sysconfig; sysconfig.get_path('purelib')");
for (const wheel of wheels) {
    pyodide.unpackArchive(new Uint8Array(readFileSync(wheel)), "wheel", { extractDir: sitePackages });
}
const unpacked = now();
const result = await pyodide.runPythonAsync(readFileSync(program, "utf8"));
const ran = now();
process.stdout.write(
    JSON.stringify({
        result,
        ms: { load: since(started, loaded), unpack: since(loaded, unpacked), run: since(unpacked, ran) },
    }),
);
