// CPU profiles of the servers `npm run bench:api` starts (BENCH_CPU_PROF=1).
import { existsSync, readdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

/**
 * `--cpu-prof` writes one profile per thread (the server's main thread, worker threads, tsx's
 * loader thread). Under one fixed `--cpu-prof-name` the thread that exits last overwrote the others, so the
 * main thread's profile was lost. Each server profiles into a folder of its own with Node's default names
 * (`CPU.<date>.<time>.<pid>.<tid>.<seq>.cpuprofile`), and `nameProfiles` renames them once the servers stop.
 */
export function profileArgs(dir: string | undefined, name: string): string[] {
  return dir ? ["--cpu-prof", `--cpu-prof-dir=${join(dir, name)}`] : [];
}

/** `<name>.cpuprofile` for each server's main thread (tid 0), `<name>-thread<tid>.cpuprofile` for the rest. */
export function nameProfiles(dir: string) {
  for (const name of ["next", "bare"]) {
    const folder = join(dir, name);
    if (!existsSync(folder)) continue;
    for (const file of readdirSync(folder)) {
      const tid = /^CPU\.\d+\.\d+\.\d+\.(\d+)\.\d+\.cpuprofile$/.exec(file)?.[1];
      if (tid === undefined) continue;
      const target = tid === "0" ? `${name}.cpuprofile` : `${name}-thread${tid}.cpuprofile`;
      renameSync(join(folder, file), join(dir, target));
    }
    rmSync(folder, { recursive: true, force: true });
  }
}
