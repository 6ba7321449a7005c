// tools/lite_pyc.mjs -- run tools/lite_pyc.py inside the site's own Pyodide, under Node.
//
//   node tools/lite_pyc.mjs DIR     # DIR: the site's Pyodide folder (pyodide.mjs, pyodide-lock.json, wheels)
//
// Loads Pyodide from DIR with every package of DIR/pyodide-lock.json, mounts DIR at /wheels and
// calls main() of tools/lite_pyc.py; exits with its return code. tools/lite.py runs it.
import { readFileSync } from "node:fs";
import path from "node:path";
import { pathToFileURL } from "node:url";

const dir = path.resolve(process.argv[2]);
const { loadPyodide } = await import(pathToFileURL(path.join(dir, "pyodide.mjs")).href);
const py = await loadPyodide({ indexURL: dir + path.sep });
py.setStdout({ batched: (line) => console.log(line) });
py.setStderr({ batched: (line) => console.error(line) });
const lock = JSON.parse(readFileSync(path.join(dir, "pyodide-lock.json"), "utf8"));
await py.loadPackage(Object.keys(lock.packages), { messageCallback: () => {} });
py.FS.mkdirTree("/wheels");
py.FS.mount(py.FS.filesystems.NODEFS, { root: dir }, "/wheels");
// Run the script as a module named lite_pyc; a Python error prints its own traceback.
py.globals.set("lite_pyc_source", readFileSync(new URL("./lite_pyc.py", import.meta.url), "utf8"));
process.exitCode = py.runPython(`
import sys, traceback, types
boot_modules = set(sys.modules)
try:
    lite_pyc = types.ModuleType("lite_pyc")
    exec(compile(lite_pyc_source, "tools/lite_pyc.py", "exec"), lite_pyc.__dict__)
    lite_pyc.BOOT_MODULES = boot_modules
    rc = lite_pyc.main()
except BaseException:
    traceback.print_exc()
    rc = 2
rc
`);  // exitCode, not exit(): console output to a pipe is written asynchronously
