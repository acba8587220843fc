import { type ChildProcess, spawn } from "node:child_process";
import { tmpdir } from "node:os";
import { join, resolve } from "node:path";
import { freePort } from "./free-port";

const ROOT = resolve(import.meta.dirname, "../..");

/** A server process (`node server.mjs` unless told otherwise) that a test or a bench started. */
export type ServerProcess = {
  name: string;
  url: string;
  port: number;
  child: ChildProcess;
  pid: number;
  /** What it printed so far (up to `keepOutput` characters). */
  output: () => string;
  /** What it printed on stderr alone so far (up to `keepOutput` characters): warnings, errors, stacks. */
  errorOutput: () => string;
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (the graceful shutdown), SIGKILL after 8 s. */
  stop: () => Promise<void>;
  /** `kill -9`: no shutdown handler runs (a cluster's workers follow their primary). */
  kill9: () => Promise<void>;
};

/**
 * Start the built app (`node server.mjs`) on a free port of 127.0.0.1 (PORT) with `env` over this process's
 * environment, and resolve once `GET /v1/ping` answers; reject with its output if it exits first or takes
 * longer than `timeoutMs`. The one way tests and benches start a server: `script`, `cwd` and `readyPath`
 * start another one the same way (the benches' bare server and reference page).
 */
export async function startServer(input: {
  name: string;
  env: Record<string, string>;
  /** Node options before the script (e.g. --cpu-prof). */
  nodeArgs?: string[];
  /** What node runs, after `nodeArgs` (default server.mjs); it must listen on PORT. */
  script?: string[];
  /** Where it runs (default the repository). */
  cwd?: string;
  /** The path that answers 2xx once it serves (default /v1/ping). */
  readyPath?: string;
  onOutput?: (text: string) => void;
  keepOutput?: number;
  timeoutMs?: number;
}): Promise<ServerProcess> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const child = spawn(process.execPath, [...(input.nodeArgs ?? []), ...(input.script ?? ["server.mjs"])], {
    cwd: input.cwd ?? ROOT,
    env: {
      ...process.env,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      HOSTNAME: "127.0.0.1",
      PUBLIC_BASE_URL: url,
      // Receipts written as files (staging without SMTP_URL) go to a temp folder, not the checkout's data/.
      RECEIPTS_DIR: join(tmpdir(), "paygate-receipts"),
      ...input.env,
      PORT: String(port),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const keep = input.keepOutput ?? 200_000;
  const chunks: string[] = [];
  let size = 0;
  const collect = (data: Buffer) => {
    const text = data.toString();
    if (size < keep) chunks.push(text);
    size += text.length;
    input.onOutput?.(text);
  };
  const errorChunks: string[] = [];
  let errorSize = 0;
  child.stdout?.on("data", collect);
  child.stderr?.on("data", (data: Buffer) => {
    const text = data.toString();
    if (errorSize < keep) errorChunks.push(text);
    errorSize += text.length;
    collect(data);
  });
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((done) =>
    child.once("exit", (code, signal) => done({ code, signal })),
  );
  const alive = () => child.exitCode === null && child.signalCode === null;
  const output = () => chunks.join("");
  const server: ServerProcess = {
    name: input.name,
    url,
    port,
    child,
    pid: child.pid as number,
    output,
    errorOutput: () => errorChunks.join(""),
    exited,
    stop: async () => {
      if (!alive()) return;
      child.kill("SIGTERM");
      const force = setTimeout(() => alive() && child.kill("SIGKILL"), 8_000);
      await exited;
      clearTimeout(force);
    },
    kill9: async () => {
      if (alive()) child.kill("SIGKILL");
      await exited;
    },
  };
  const readyPath = input.readyPath ?? "/v1/ping";
  const deadline = Date.now() + (input.timeoutMs ?? 60_000);
  while (Date.now() < deadline) {
    if (!alive()) throw new Error(`${input.name} exited before listening:\n${output().slice(-4_000)}`);
    try {
      if ((await fetch(`${url}${readyPath}`)).ok) return server;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await server.kill9();
  throw new Error(
    `${input.name} did not answer ${readyPath} within ${input.timeoutMs ?? 60_000} ms:\n${output().slice(-4_000)}`,
  );
}
