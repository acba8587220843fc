import { execFile, execFileSync } from "node:child_process";
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { freePort } from "../../scripts/lib/free-port";

/**
 * A PostgreSQL server of the test's own (initdb into a temp folder, on a free port), for tests that stop or
 * restart the database under the service: restarting the machine's shared server would break every other
 * suite running beside them. Needs the server binaries (Debian's postgresql package); `available()` says.
 */
function binDir(): string | undefined {
  try {
    const dir = execFileSync("pg_config", ["--bindir"], { encoding: "utf8" }).trim();
    if (existsSync(join(dir, "initdb"))) return dir;
  } catch {
    // no pg_config: look where Debian puts the versions
  }
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  for (const version of readdirSync(root).sort().reverse()) {
    const dir = join(root, version, "bin");
    if (existsSync(join(dir, "initdb"))) return dir;
  }
  return undefined;
}

const BIN = binDir();
/** initdb and the server refuse to run as root: as root, run them as the postgres user. */
const AS_ROOT = userInfo().uid === 0;

export function privatePostgresAvailable(): boolean {
  if (!BIN) return false;
  if (!AS_ROOT) return true;
  try {
    execFileSync("id", ["postgres"], { stdio: "ignore" });
    return true;
  } catch {
    return false;
  }
}

function command(tool: string, args: string[]): [string, string[]] {
  const bin = join(BIN as string, tool);
  return AS_ROOT ? ["runuser", ["-u", "postgres", "--", bin, ...args]] : [bin, args];
}

function run(tool: string, args: string[]): void {
  const [file, argv] = command(tool, args);
  execFileSync(file, argv, { stdio: "pipe" });
}

/** The same, without blocking this process's event loop (requests keep flowing while it runs). */
async function runAsync(tool: string, args: string[]): Promise<void> {
  const [file, argv] = command(tool, args);
  await promisify(execFile)(file, argv);
}

export type PrivatePostgres = {
  /** `postgres://…/paygate`, a database made for the test. */
  url: string;
  /** Stop the server (fast: sessions are cut). */
  stop: () => void;
  /** Start it again on the same port. */
  start: () => void;
  /** Stop and start it again, while the calling process goes on. */
  restartAsync: () => Promise<void>;
  /** Stop it and remove its files. */
  destroy: () => Promise<void>;
};

export async function startPrivatePostgres(): Promise<PrivatePostgres> {
  if (!privatePostgresAvailable()) throw new Error("PostgreSQL server binaries are not installed");
  const dir = mkdtempSync(join(tmpdir(), "paygate-pg-"));
  if (AS_ROOT) {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    chownSync(dir, uid, gid);
  }
  const data = join(dir, "data");
  run("initdb", ["-D", data, "-A", "trust", "-U", "postgres", "--no-sync", "-E", "UTF8"]);
  const port = await freePort();
  const options = `-p ${port} -k ${dir} -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=200`;
  const log = join(dir, "server.log");
  const start = () => run("pg_ctl", ["-D", data, "-o", options, "-l", log, "-w", "start"]);
  start();
  const admin = new pg.Client({ connectionString: `postgres://postgres@127.0.0.1:${port}/postgres` });
  await admin.connect();
  await admin.query("CREATE DATABASE paygate");
  await admin.end();
  return {
    url: `postgres://postgres@127.0.0.1:${port}/paygate`,
    stop: () => run("pg_ctl", ["-D", data, "-m", "fast", "-w", "stop"]),
    start,
    restartAsync: () =>
      runAsync("pg_ctl", ["-D", data, "-o", options, "-l", log, "-m", "fast", "-w", "restart"]),
    destroy: async () => {
      try {
        run("pg_ctl", ["-D", data, "-m", "immediate", "-w", "stop"]);
      } catch {
        // already stopped
      }
      rmSync(dir, { recursive: true, force: true });
    },
  };
}
