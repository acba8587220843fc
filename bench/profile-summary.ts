// Summarise a V8 .cpuprofile (from `npm run bench` with BENCH_CPU_PROF=1 BENCH_ONLY=<one target>):
//  - self time by area (Next, Node internals by subsystem, GC, the app bundle, ...),
//  - the hottest functions by self time,
//  - inclusive time of our own code (lib/, app/), mapped through the build's source maps where the build wrote
//    them (a .js.map beside each server chunk: Turbopack's index maps, or webpack's with
//    `experimental.serverSourceMaps`); a frame of the app bundle with no map counts as the bundle's, not ours.
//   tsx bench/profile-summary.ts bench/results/profiles-<ts>/next.cpuprofile [top=25]
// Percentages are of busy time (idle excluded) and include server start-up, which is small next to a run.
import { existsSync, readFileSync } from "node:fs";
import { SourceMap } from "node:module";
import { fileURLToPath } from "node:url";

type CallFrame = { functionName: string; url: string; lineNumber: number; columnNumber: number };
type Node = { id: number; callFrame: CallFrame; children?: number[] };
type Profile = { nodes: Node[]; samples: number[]; timeDeltas: number[] };

/** Which part of the stack a frame belongs to, from its script URL. */
function area(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) {
    if (functionName === "(garbage collector)") return "V8: garbage collector";
    if (functionName === "(idle)") return "idle";
    if (functionName === "(program)") return "V8: program (native, unattributed)";
    return `native: ${functionName || "(anonymous)"}`;
  }
  if (url.startsWith("node:internal/")) {
    const parts = url.slice("node:internal/".length).split("/");
    const depth = parts[0] === "deps" || parts[0] === "modules" ? 2 : 1;
    return `node: internal/${parts.slice(0, depth).join("/").replace(/\.js$/, "")}`;
  }
  if (url.startsWith("node:")) return `node: ${url.slice(5)}`;
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\/(.*)$/.exec(url);
  if (pkg) {
    const [, name = "", rest = ""] = pkg;
    if (name === "next") {
      const compiled = /dist\/compiled\/([^/]+)/.exec(rest);
      if (compiled) return `next (compiled ${compiled[1]})`;
      const dir = /dist\/(server\/[^/]+|[^/]+)/.exec(rest);
      return `next (${dir?.[1] ?? "other"})`;
    }
    return name;
  }
  if (/\/\.next[^/]*\/server\//.test(url)) return "app bundle (.next*/server: routes, lib/, bundled deps)";
  const repo = /\/(lib|app|bench)\/(.*)$/.exec(url);
  if (repo) return `${repo[1]}/${repo[2]?.split("/")[0] ?? ""}`;
  return url;
}

const maps = new Map<string, SourceMap | null>();

function sourceMapFor(url: string): SourceMap | null {
  let map = maps.get(url);
  if (map !== undefined) return map;
  map = null;
  try {
    const path = url.startsWith("file://") ? fileURLToPath(url) : url;
    if (/\/\.next[^/]*\/server\//.test(path) && existsSync(`${path}.map`)) {
      const payload = JSON.parse(readFileSync(`${path}.map`, "utf8"));
      // Turbopack writes index maps (sections); node:module's SourceMap reads those too.
      map = new SourceMap(payload);
    }
  } catch {
    map = null;
  }
  maps.set(url, map);
  return map;
}

type Frame = { key: string; ours: boolean; area: string };

/** The area of an original source file of the app bundle: a package, or lib/<dir>, app/... */
function sourceArea(source: string): string {
  const pkg = /node_modules\/((?:@[^/]+\/)?[^/]+)\//.exec(source);
  if (pkg) return `app bundle: ${pkg[1]}`;
  if (source.startsWith("[turbopack]")) return "app bundle: turbopack runtime";
  const dir = /^(lib|app)\/([^/]+)/.exec(source);
  if (dir) return `app bundle: ${dir[1]}/${dir[1] === "lib" ? dir[2] : "(routes)"}`;
  return `app bundle: ${source.split("/")[0]}`;
}

/** A readable name for a frame: the original file and line through the source map when there is one. */
function describeFrame(frame: CallFrame): Frame {
  const { functionName, url, lineNumber, columnNumber } = frame;
  const map = url ? sourceMapFor(url) : null;
  if (map) {
    const entry = map.findEntry(lineNumber, columnNumber) as {
      originalSource?: string;
      originalLine?: number;
      name?: string;
    };
    if (entry.originalSource) {
      const source = entry.originalSource
        .replace(/^.*\[project\]\//, "")
        .replace(/^turbopack:\/\/\//, "")
        .replace(/^webpack:\/\/[^/]*\/(\.\/)?/, "")
        .replace(/^(\.\.\/)+/, "");
      const ours = /^(lib|app|instrumentation)/.test(source);
      return {
        key: `${entry.name ?? functionName ?? "(anonymous)"} ${source}:${(entry.originalLine ?? 0) + 1}`,
        ours,
        area: sourceArea(source),
      };
    }
  }
  const where = url ? `${url.replace(/^.*\/(node_modules|\.next[^/]*)\//, "$1/")}:${lineNumber + 1}` : "";
  // Unmapped, a bundle's chunk (.next*/server/app/…) holds Next's and the packages' code too: not ours.
  const ours = /\/(lib|app)\//.test(url) && !url.includes("node_modules") && !/\/\.next[^/]*\//.test(url);
  return { key: `${functionName || "(anonymous)"} ${where}`.trim(), ours, area: area(frame) };
}

export function summarise(file: string, top = 25): string {
  const profile = JSON.parse(readFileSync(file, "utf8")) as Profile;
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of profile.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const frames = new Map<number, Frame>();
  const frameOf = (id: number): Frame => {
    let f = frames.get(id);
    if (!f) {
      const node = byId.get(id);
      f = node ? describeFrame(node.callFrame) : { key: "?", ours: false, area: "?" };
      frames.set(id, f);
    }
    return f;
  };

  let total = 0;
  let idle = 0;
  let withOurs = 0;
  const areas = new Map<string, number>();
  const selfTime = new Map<string, number>();
  const inclusive = new Map<string, number>();
  for (let i = 0; i < profile.samples.length; i++) {
    const id = profile.samples[i] ?? 0;
    const micros = profile.timeDeltas[i] ?? 0;
    const node = byId.get(id);
    if (!node) continue;
    total += micros;
    const a = frameOf(id).area;
    if (a === "idle") {
      idle += micros;
      continue;
    }
    areas.set(a, (areas.get(a) ?? 0) + micros);
    const leaf = frameOf(id).key;
    selfTime.set(leaf, (selfTime.get(leaf) ?? 0) + micros);
    const seen = new Set<string>();
    for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
      const f = frameOf(at);
      if (f.ours && seen.size === 0) withOurs += micros;
      if (!f.ours || seen.has(f.key)) continue;
      seen.add(f.key);
      inclusive.set(f.key, (inclusive.get(f.key) ?? 0) + micros);
    }
  }
  const busy = total - idle;
  const pct = (n: number) => `${((100 * n) / busy).toFixed(1).padStart(5)}%`;
  const sorted = (m: Map<string, number>) => [...m].sort((x, y) => y[1] - x[1]).slice(0, top);
  return [
    `${file}: ${(total / 1e6).toFixed(1)} s sampled, ${(busy / 1e6).toFixed(1)} s busy (percentages of busy)`,
    "",
    "Self time by area:",
    ...sorted(areas).map(([a, us]) => `  ${pct(us)}  ${a}`),
    "",
    `Hottest functions, self time (top ${top}):`,
    ...sorted(selfTime).map(([f, us]) => `  ${pct(us)}  ${f.slice(0, 150)}`),
    "",
    `Samples with our code (lib/, app/) anywhere on the stack: ${pct(withOurs).trim()} (time spent after an` +
      " await is attributed to whatever resumed it, so this is a floor)",
    `Our code (lib/, app/), inclusive time (top ${top}):`,
    ...sorted(inclusive).map(([f, us]) => `  ${pct(us)}  ${f.slice(0, 150)}`),
  ].join("\n");
}

if (process.argv[1]?.endsWith("profile-summary.ts")) {
  const [file, top] = process.argv.slice(2);
  if (!file) {
    console.error("usage: tsx bench/profile-summary.ts <file.cpuprofile> [top]");
    process.exit(2);
  }
  console.log(summarise(file, Number(top ?? 25)));
}
