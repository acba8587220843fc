import { readdirSync } from "node:fs";
import { cruise } from "dependency-cruiser";
import extractTSConfig from "dependency-cruiser/config-utl/extract-ts-config";
import { beforeAll, describe, expect, it } from "vitest";

/**
 * The layout's two rules (CONTRIBUTING.md "Where code goes"), read from the import graph as
 * dependency-cruiser resolves it (the tsconfig's `@/` paths included):
 *  - the domain (lib/<area>, everything under lib/ but the transport) never imports the transport: lib/http,
 *    lib/openapi, app/ or components/; what every layer shares (AppError, the error table, the principal)
 *    is in lib/core;
 *  - no cycle between areas: each area's imports lead away from it, never back.
 * An area is a folder under lib/ (or a file at its top, lib/env.ts), app/, or components/.
 */
const TRANSPORT = new Set(["lib/http", "lib/openapi", "app", "components"]);

function sources(dir: string): string[] {
  return (
    readdirSync(dir, { recursive: true, withFileTypes: true })
      .filter((e) => e.isFile() && /\.tsx?$/.test(e.name) && !/\.(test|d)\.tsx?$/.test(e.name))
      .map((e) => `${e.parentPath}/${e.name}`)
      // The Paystack double is test equipment that starts the app's own code, not part of it.
      .filter((path) => !path.includes("/double/"))
  );
}

function areaOf(path: string): string | null {
  if (path.startsWith("app/")) return "app";
  if (path.startsWith("components/")) return "components";
  const folder = /^lib\/([^/]+)\//.exec(path);
  if (folder) return `lib/${folder[1]}`;
  const file = /^lib\/([^/]+)\.tsx?$/.exec(path);
  return file ? `lib/${file[1]}` : null;
}

async function areaGraph() {
  const tsConfig = extractTSConfig("tsconfig.json");
  const result = await cruise(
    [...sources("lib"), ...sources("app"), ...sources("components")],
    { tsConfig: { fileName: "tsconfig.json" }, doNotFollow: { path: "node_modules" } },
    { extensions: [".ts", ".tsx", ".mjs", ".js"] },
    { tsConfig },
  );
  if (typeof result.output === "string") throw new Error("dependency-cruiser answered text");
  /** "from area -> to area" → the imports that make that edge. */
  const edges = new Map<string, string[]>();
  for (const module of result.output.modules) {
    const from = areaOf(module.source);
    if (!from) continue;
    for (const dependency of module.dependencies) {
      const to = areaOf(dependency.resolved);
      if (!to || to === from) continue;
      const key = `${from} -> ${to}`;
      edges.set(key, [...(edges.get(key) ?? []), `${module.source} imports ${dependency.resolved}`]);
    }
  }
  return { edges, modules: result.output.modules.length };
}

/** The strongly connected components of more than one area (Tarjan): each is a cycle, or several. */
function cycles(edges: Map<string, string[]>): string[][] {
  const next = new Map<string, string[]>();
  for (const key of edges.keys()) {
    const [from = "", to = ""] = key.split(" -> ");
    next.set(from, [...(next.get(from) ?? []), to]);
  }
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  let counter = 0;
  const visit = (v: string) => {
    index.set(v, counter);
    low.set(v, counter);
    counter++;
    stack.push(v);
    onStack.add(v);
    for (const w of next.get(v) ?? []) {
      if (!index.has(w)) {
        visit(w);
        low.set(v, Math.min(low.get(v) ?? 0, low.get(w) ?? 0));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v) ?? 0, index.get(w) ?? 0));
    }
    if (low.get(v) !== index.get(v)) return;
    const component: string[] = [];
    let w: string | undefined;
    do {
      w = stack.pop();
      if (w === undefined) break;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    if (component.length > 1) found.push(component.sort());
  };
  for (const v of next.keys()) if (!index.has(v)) visit(v);
  return found;
}

describe("the layout", () => {
  let graph: Awaited<ReturnType<typeof areaGraph>>;
  beforeAll(async () => {
    graph = await areaGraph();
  }, 60_000);

  it("reads the whole code base", () => {
    expect(graph.modules).toBeGreaterThan(300);
    expect(graph.edges.size).toBeGreaterThan(50);
  });

  it("the domain never imports the transport (lib/http, lib/openapi, app/, components/)", () => {
    const wrong = [...graph.edges.entries()]
      .filter(([key]) => {
        const [from = "", to = ""] = key.split(" -> ");
        return !TRANSPORT.has(from) && TRANSPORT.has(to);
      })
      .flatMap(([, imports]) => imports);
    expect(wrong).toEqual([]);
  });

  it("no cycle between areas", () => {
    const found = cycles(graph.edges).map((component) => {
      const inside = new Set(component);
      return [...graph.edges.entries()]
        .filter(([key]) => key.split(" -> ").every((area) => inside.has(area)))
        .map(([key, imports]) => `${key}: ${imports.slice(0, 2).join("; ")}`);
    });
    expect(found).toEqual([]);
  });
});
