// npm start: install and build when needed, then serve (server.mjs migrates the database and, on an empty
// staging database, creates the demo merchant and prints its test key and a ready-to-run curl).
import { spawn } from "node:child_process";
import { ensureBuilt, ensureInstalled, root } from "./prepare.mjs";

ensureInstalled();
ensureBuilt();

const child = spawn(process.execPath, ["server.mjs"], {
  cwd: root,
  stdio: "inherit",
  env: { NODE_ENV: "production", NEXT_TELEMETRY_DISABLED: "1", ...process.env },
});
for (const signal of ["SIGINT", "SIGTERM"]) process.on(signal, () => child.kill(signal));
child.on("exit", (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
