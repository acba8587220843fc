import { inspect } from "node:util";
import { Worker } from "node:worker_threads";
import type BetterSqlite3 from "better-sqlite3";
import { log } from "@/lib/log";

/**
 * WAL checkpoints on a thread of their own, off the event loop.
 *
 * SQLite's default (`wal_autocheckpoint = 1000`) runs a checkpoint inside whichever commit pushes the WAL past
 * 1000 pages: that commit copies the pages into the database file and fsyncs it, on the JS thread, while
 * every other request waits. Measured here, it more than doubles the cost of a commit on average
 * (initialize's insert: ~330 µs with it, ~170 µs without) and its fsync lands as a stall in the tail latency.
 *
 * Here the process's connection never checkpoints (`wal_autocheckpoint = 0`); a worker thread with its own
 * connection runs `wal_checkpoint(PASSIVE)` every `intervalMs`. PASSIVE never blocks writers or readers: it
 * copies what it can and leaves the rest for the next tick. Durability does not depend on checkpoints: the
 * process's connection runs `synchronous = FULL` (lib/db/client.ts), so a commit is fsynced to the WAL before
 * it returns and survives a power loss whether or not it has been checkpointed. (With `synchronous = NORMAL` a
 * WAL commit is synced only at the next checkpoint, and a power loss before it can roll the commit back.)
 *
 * If the thread cannot start, reports an error, or exits, the connection goes back to SQLite's own
 * checkpoints (`wal_autocheckpoint = 1000`) and a warning is logged, so the WAL can never grow unchecked.
 */
export type Checkpointer = { stop(): Promise<void> };

/** The worker's source, run with `eval` so it needs no file of its own beside the bundled server code. */
const WORKER_SOURCE = `
const { parentPort, workerData } = require("node:worker_threads");
const Database = require("better-sqlite3");
const db = new Database(workerData.file, { fileMustExist: true });
db.pragma("busy_timeout = 2000");
db.pragma("synchronous = FULL");
db.pragma("wal_autocheckpoint = 0");
let stopped = false;
function checkpoint() {
  try {
    const [result] = db.pragma("wal_checkpoint(PASSIVE)");
    return result;
  } catch (err) {
    if (err && err.code === "SQLITE_BUSY") return undefined; // another checkpointer holds the lock; next tick
    throw err;
  }
}
const timer = setInterval(() => {
  if (stopped) return;
  try {
    checkpoint();
  } catch (err) {
    parentPort.postMessage({ error: String(err && err.message ? err.message : err) });
  }
}, workerData.intervalMs);
parentPort.on("message", (message) => {
  if (message !== "stop" || stopped) return;
  stopped = true;
  clearInterval(timer);
  try { checkpoint(); } catch {}
  db.close();
  parentPort.postMessage({ stopped: true });
});
`;

const AUTOCHECKPOINT_PAGES = 1000;

export function startCheckpointer(
  sqlite: BetterSqlite3.Database,
  file: string,
  intervalMs = 200,
): Checkpointer | null {
  let worker: Worker;
  try {
    // An eval'd worker resolves modules from the working directory, the project root for `npm start`, the
    // worker script and the tests; the app bundle keeps better-sqlite3 external, so this is the same module
    // as the main connection's. Should it not resolve, the worker exits and the fallback below applies.
    worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { file, intervalMs } });
  } catch (err) {
    log.warn("SQLite checkpoint thread did not start; checkpoints stay on the main thread", {
      error: err instanceof Error ? err.message : String(err),
    });
    return null;
  }
  worker.unref();
  sqlite.pragma("wal_autocheckpoint = 0");
  let stopping = false;
  let fellBack = false;
  const fallBack = (reason: string) => {
    if (fellBack || stopping) return;
    fellBack = true;
    try {
      if (sqlite.open) sqlite.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
    } catch {
      // the connection is closing; nothing to checkpoint
    }
    log.warn("SQLite checkpoint thread failed; checkpoints are back on the main thread", { reason });
    void worker.terminate();
  };
  worker.on("message", (message: { error?: string }) => {
    if (message.error) fallBack(message.error);
  });
  worker.on("error", (err: unknown) => fallBack(inspect(err, { depth: 1, breakLength: Infinity })));
  worker.on("exit", (code) => fallBack(`exited with code ${code}`));
  return {
    async stop() {
      if (stopping || fellBack) return;
      stopping = true;
      await new Promise<void>((done) => {
        const timeout = setTimeout(() => void worker.terminate().finally(done), 3_000);
        worker.once("exit", () => {
          clearTimeout(timeout);
          // A worker stopped before it came online leaves its message port referenced while listeners
          // remain, which kept a short-lived process (a CLI that closes the database at once) from exiting.
          worker.removeAllListeners();
          done();
        });
        worker.on("message", (message: { stopped?: boolean }) => {
          if (message.stopped) void worker.terminate();
        });
        worker.postMessage("stop");
      });
    },
  };
}
