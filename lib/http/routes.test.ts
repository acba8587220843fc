import { readdirSync } from "node:fs";
import { join, relative, sep } from "node:path";
import { pathToFileURL } from "node:url";
import { describe, expect, it, vi } from "vitest";
import { z } from "zod";
import { defineEndpoint } from "@/lib/core/endpoint";
import { ENDPOINTS } from "@/lib/endpoints";
import { routes, wiredEndpoint } from "./routes";

const V1 = join(import.meta.dirname, "../../app/v1");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** Every app/v1 route module but the catch-all 404, by the OpenAPI path its folder stands for. */
function routeFiles(): Array<{ path: string; file: string }> {
  return readdirSync(V1, { recursive: true, withFileTypes: true })
    .filter((e) => e.isFile() && e.name === "route.ts")
    .map((e) => ({
      path: `/v1/${relative(V1, e.parentPath).split(sep).join("/")}`
        .replace(/\[([^\]]+)\]/g, "{$1}")
        .replace(/\/$/, ""),
      file: join(e.parentPath, e.name),
    }))
    .filter(({ path }) => !path.includes("{[..."));
}

describe("routes wired from the registry", () => {
  it("every registry endpoint is served by the route file at its path, and every served method is a registry endpoint", async () => {
    const served: string[] = [];
    for (const { path, file } of routeFiles()) {
      const module = (await import(pathToFileURL(file).href)) as Record<string, unknown>;
      for (const method of METHODS) {
        const endpoint = wiredEndpoint(module[method]);
        if (!endpoint) continue;
        expect(endpoint.path, `${method} in ${file}`).toBe(path);
        expect(endpoint.method, `${method} in ${file}`).toBe(method);
        expect(ENDPOINTS, `${method} ${path} is in the registry`).toContain(endpoint);
        served.push(`${method} ${path}`);
      }
    }
    expect(served.sort()).toEqual(ENDPOINTS.map((e) => `${e.method} ${e.path}`).sort());
  }, 60_000);

  it("answers 405 naming the endpoints' methods for the others, and OPTIONS lists them", async () => {
    const list = defineEndpoint({
      method: "GET",
      path: "/v1/things",
      tag: "Service",
      summary: "Things",
      auth: "none",
      status: 200,
      response: z.object({ things: z.array(z.string()) }),
      handler: async () => ({ things: ["a"] }),
    });
    const make = defineEndpoint({
      method: "POST",
      path: "/v1/things",
      tag: "Service",
      summary: "Make a thing",
      auth: "none",
      body: z.strictObject({ name: z.string() }),
      status: 201,
      response: z.object({ name: z.string() }),
      handler: async ({ body }) => ({ name: body.name }),
    });
    const route = routes(make, list);
    const context = { params: Promise.resolve({}) };
    const put = await route.PUT(new Request("http://x/v1/things", { method: "PUT" }), context);
    expect(put.status).toBe(405);
    expect(put.headers.get("allow")).toBe("GET, POST");
    const options = await route.OPTIONS(new Request("http://x/v1/things", { method: "OPTIONS" }), context);
    expect(options.headers.get("allow")).toBe("GET, POST, OPTIONS");
    const created = await route.POST(
      new Request("http://x/v1/things", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ name: "b" }),
      }),
      context,
    );
    expect(created.status).toBe(201);
    expect(await created.json()).toEqual({ status: "success", data: { name: "b" } });
    expect(() => routes(list, { ...make, path: "/v1/other" })).toThrow(/one path/);
  });
});

describe("a handler's answer", () => {
  it("must have its response schema's shape (checked by the compiler: npx tsc)", () => {
    const base = {
      method: "GET",
      path: "/v1/things",
      tag: "Service",
      summary: "Things",
      auth: "none",
      status: 200,
      response: z.object({ id: z.string(), count: z.number(), state: z.enum(["open", "closed"]) }),
    } as const;
    const right = defineEndpoint({ ...base, handler: async () => ({ id: "a", count: 1, state: "open" }) });
    defineEndpoint({
      ...base,
      // @ts-expect-error: `count` is missing
      handler: async () => ({ id: "a", state: "open" }),
    });
    defineEndpoint({
      ...base,
      // @ts-expect-error: `count` is a number, not a string
      handler: async () => ({ id: "a", count: "1", state: "open" }),
    });
    expect(right.response.safeParse({ id: "a", count: 1, state: "open" }).success).toBe(true);
  });
});

describe("a failure code the endpoint does not declare", () => {
  /** The wrapper as a fresh process has it (the configuration is read once), and a route failing by `id`. */
  async function thingRoute() {
    vi.resetModules();
    const { routes: freshRoutes } = await import("./routes");
    const { AppError } = await import("@/lib/core/errors");
    const route = freshRoutes(
      defineEndpoint({
        method: "GET",
        path: "/v1/things/{id}",
        tag: "Service",
        summary: "One thing",
        auth: "none",
        params: z.strictObject({ id: z.string() }),
        status: 200,
        response: z.object({ id: z.string() }),
        errors: ["event_not_found"],
        handler: async ({ params }) => {
          if (params.id === "declared") throw new AppError("event_not_found", "No such thing.");
          throw new AppError("refund_not_found", "Not this kind of thing.");
        },
      }),
    );
    return async (id: string) => {
      const response = await route.GET(new Request(`http://x/v1/things/${id}`), {
        params: Promise.resolve({ id }),
      });
      return { status: response.status, error: ((await response.json()) as { error: string }).error };
    };
  }

  it("with CHECK_DECLARED_ERRORS (the test servers) answers 500 internal_error, so the suite meeting it fails", async () => {
    vi.stubEnv("CHECK_DECLARED_ERRORS", "1");
    try {
      const get = await thingRoute();
      expect(await get("declared")).toEqual({ status: 404, error: "event_not_found" });
      expect(await get("other")).toEqual({ status: 500, error: "internal_error" });
    } finally {
      vi.unstubAllEnvs();
    }
  });

  it("without it, the code goes out as thrown", async () => {
    vi.stubEnv("CHECK_DECLARED_ERRORS", "0");
    try {
      const get = await thingRoute();
      expect(await get("other")).toEqual({ status: 404, error: "refund_not_found" });
    } finally {
      vi.unstubAllEnvs();
    }
  });
});
