import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { runInNewContext } from "node:vm";
import { afterEach, describe, expect, it } from "vitest";
import {
  createPaintFirstRewriter,
  LOADER_SOURCE,
  LOADER_TIMEOUT_MS,
  loaderCalls,
  paintFirst,
} from "./paint-first.mjs";

const NONCE = "n0nce+/=";
const HEAD =
  `<!DOCTYPE html><html lang="en"><head><meta charSet="utf-8"/>` +
  `<link rel="stylesheet" href="/_next/static/chunks/app.css" nonce="${NONCE}" data-precedence="next"/>` +
  `<link rel="preload" as="script" fetchPriority="low" nonce="${NONCE}" href="/_next/static/chunks/main.js"/>` +
  `<script src="/_next/static/chunks/a.js" async="" nonce="${NONCE}"></script>` +
  `<script src="/_next/static/chunks/b.js?v=1&amp;x=2" async="" nonce="${NONCE}"></script>` +
  `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${NONCE}"></script>` +
  `<script src="/_next/static/chunks/main.js" nonce="${NONCE}" async=""></script>` +
  `<link rel="preload" href="/_next/static/chunks/panel.js" as="script" nonce="${NONCE}" fetchPriority="low"/>` +
  `<link rel="icon" href="/icon.svg" sizes="any" type="image/svg+xml"/>` +
  `<script src="https://cdn.example/x.js" async=""></script>` +
  `<script src="/_next/static/chunks/typed.js" type="module" async=""></script>` +
  `</head><body><p>Vous payez 5 175,00 NGN — déjà</p>` +
  `<script nonce="${NONCE}">self.__next_f.push([1,"a\\u003cscript"])</script></body></html>`;

function rewrite(html: string, cut: number[] = []): string {
  const bytes = Buffer.from(html, "utf8");
  const r = createPaintFirstRewriter();
  const out: Buffer[] = [];
  let at = 0;
  for (const end of [...cut, bytes.length]) {
    out.push(r.push(bytes.subarray(at, end)));
    at = end;
  }
  out.push(r.end());
  return Buffer.concat(out).toString("utf8");
}

describe("createPaintFirstRewriter", () => {
  it("turns each async app chunk and each chunk preload into a loader call, in document order", () => {
    const out = rewrite(HEAD);
    expect(loaderCalls(out)).toEqual([
      ["/_next/static/chunks/main.js", null, "", 0],
      ["/_next/static/chunks/a.js", null, "", 1],
      ["/_next/static/chunks/b.js?v=1&x=2", null, "", 1],
      ["/_next/static/chunks/main.js", null, "", 1],
      ["/_next/static/chunks/panel.js", null, "", 0],
    ]);
    // No app chunk is left for the parser to fetch or run before the first paint.
    expect(out).not.toMatch(/<script[^>]*src="\/_next\/static\/chunks\/(a|b|main)\.js/);
    expect(out).not.toMatch(/<link[^>]*as="script"/);
    // The loader is defined once, by the first call, and every inline script carries the page's nonce.
    expect(out.split(LOADER_SOURCE)).toHaveLength(2);
    expect(out.indexOf(LOADER_SOURCE)).toBeLessThan(out.indexOf("__paintFirst(["));
    const inline = [...out.matchAll(/<script([^>]*)>self\.__paintFirst|<script([^>]*)>\(function\(w,d\)/g)];
    expect(inline.length).toBe(5);
    for (const m of inline) expect(m[1] ?? m[2]).toBe(` nonce="${NONCE}"`);
    // The nonce is never written into a script's text.
    expect(out).not.toContain(`"${NONCE}"]`);
  });

  it("leaves alone what is not an async app chunk: the stylesheet, the icon, nomodule, other hosts, typed scripts, inline scripts, text", () => {
    const out = rewrite(HEAD);
    for (const kept of [
      `<link rel="stylesheet" href="/_next/static/chunks/app.css" nonce="${NONCE}" data-precedence="next"/>`,
      `<script src="/_next/static/chunks/polyfills.js" noModule="" nonce="${NONCE}"></script>`,
      `<link rel="icon" href="/icon.svg" sizes="any" type="image/svg+xml"/>`,
      `<script src="https://cdn.example/x.js" async=""></script>`,
      `<script src="/_next/static/chunks/typed.js" type="module" async=""></script>`,
      `<p>Vous payez 5 175,00 NGN — déjà</p>`,
      `<script nonce="${NONCE}">self.__next_f.push([1,"a\\u003cscript"])</script>`,
    ])
      expect(out).toContain(kept);
  });

  it("gives the same output however the stream is cut, inside tags, attributes and multi-byte characters", () => {
    const whole = rewrite(HEAD);
    const bytes = Buffer.byteLength(HEAD);
    for (let cut = 1; cut < bytes; cut++) expect(rewrite(HEAD, [cut])).toBe(whole);
    // Many small writes.
    const cuts = Array.from({ length: Math.floor(bytes / 7) }, (_, i) => (i + 1) * 7);
    expect(rewrite(HEAD, cuts)).toBe(whole);
  });

  it("writes out everything before an unfinished tag at once and holds back only the tag", () => {
    const r = createPaintFirstRewriter();
    const first = r.push(
      Buffer.from(`<html><head><meta charSet="utf-8"/><script src="/_next/static/chunks/a.js" as`),
    );
    expect(first.toString()).toBe(`<html><head><meta charSet="utf-8"/>`);
    const second = r.push(Buffer.from(`ync=""></script><title>T</title>`));
    expect(second.toString()).toContain("__paintFirst([");
    expect(second.toString()).toMatch(/<title>T<\/title>$/);
    expect(r.end().toString()).toBe("");
  });

  it("escapes a URL so that it cannot end the inline script", () => {
    const out = rewrite(`<script src="/_next/static/chunks/x.js?&lt;/script&gt;" async=""></script>`);
    expect(out).not.toContain("</script><");
    expect(loaderCalls(out)[0]?.[0]).toBe("/_next/static/chunks/x.js?</script>");
  });

  it("defines the loader again in a script of another nonce, so a refused first definition leaves none without it", () => {
    const out = rewrite(
      `<script src="/_next/static/chunks/a.js" async=""></script>` +
        `<script src="/_next/static/chunks/b.js" async="" nonce="one"></script>` +
        `<script src="/_next/static/chunks/c.js" async="" nonce="one"></script>`,
    );
    expect(out.split(LOADER_SOURCE)).toHaveLength(3);
    expect(out).toContain(
      `<script nonce="one">${LOADER_SOURCE}self.__paintFirst(["/_next/static/chunks/b.js"`,
    );
    expect(out).toContain(`<script nonce="one">self.__paintFirst(["/_next/static/chunks/c.js"`);
  });

  it("keeps crossorigin and integrity", () => {
    const out = rewrite(
      `<script src="/_next/static/chunks/a.js" async="" crossorigin="anonymous" integrity="sha384-abc"></script>`,
    );
    expect(loaderCalls(out)).toEqual([["/_next/static/chunks/a.js", "anonymous", "sha384-abc", 1]]);
  });
});

/** A fake browser for the loader: a head that records what is appended, paint timing, timers. */
function loaderWorld({ visibility = "visible", paintTiming = true, bodyText = "NGN 5,175.00" } = {}) {
  const appended: Record<string, unknown>[] = [];
  let observer: ((list: { getEntriesByName(name: string): unknown[] }) => void) | undefined;
  let disconnected = false;
  const timers: (() => void)[] = [];
  const listeners: Record<string, () => void> = {};
  const document = {
    currentScript: { nonce: "abc" },
    body: { textContent: bodyText },
    visibilityState: visibility,
    head: { appendChild: (e: Record<string, unknown>) => appended.push(e) },
    createElement: (tag: string) => ({ tag }),
    addEventListener: (type: string, fn: () => void) => {
      listeners[type] = fn;
    },
  };
  class PerformanceObserver {
    static supportedEntryTypes = paintTiming ? ["paint", "largest-contentful-paint"] : ["navigation"];
    constructor(fn: typeof observer) {
      observer = fn;
    }
    observe() {}
    disconnect() {
      disconnected = true;
    }
  }
  const self: Record<string, unknown> = { PerformanceObserver };
  const context = {
    self,
    document,
    setTimeout: (fn: () => void, ms: number) => {
      expect(ms).toBe(LOADER_TIMEOUT_MS);
      timers.push(fn);
    },
  };
  const run = (code: string) => runInNewContext(code, context);
  return {
    appended,
    run,
    paint: (name: string) => observer?.({ getEntriesByName: (n) => (n === name ? [{}] : []) }),
    fireTimers: () => {
      for (const fn of timers) fn();
    },
    fire: (type: string) => listeners[type]?.(),
    get disconnected() {
      return disconnected;
    },
  };
}

describe("the loader", () => {
  const calls = `self.__paintFirst(["/_next/static/chunks/a.js",null,"",1]);self.__paintFirst(["/_next/static/chunks/p.js","anonymous","sha384-x",0])`;

  it("adds nothing before the first contentful paint, then every script and preload in order, with the nonce", () => {
    const w = loaderWorld();
    w.run(LOADER_SOURCE + calls);
    expect(w.appended).toEqual([]);
    w.paint("first-paint");
    expect(w.appended).toEqual([]);
    w.paint("first-contentful-paint");
    expect(w.disconnected).toBe(true);
    expect(w.appended).toEqual([
      { tag: "script", src: "/_next/static/chunks/a.js", async: true, nonce: "abc" },
      {
        tag: "link",
        rel: "preload",
        as: "script",
        href: "/_next/static/chunks/p.js",
        crossOrigin: "anonymous",
        integrity: "sha384-x",
        nonce: "abc",
      },
    ]);
    // A chunk the stream brings after the paint is added at once, and nothing twice.
    w.run(`self.__paintFirst(["/_next/static/chunks/late.js",null,"",1])`);
    w.fireTimers();
    w.fire("visibilitychange");
    expect(w.appended.map((e) => e.src ?? e.href)).toEqual([
      "/_next/static/chunks/a.js",
      "/_next/static/chunks/p.js",
      "/_next/static/chunks/late.js",
    ]);
  });

  it("is defined once: a second definition keeps the first one's queue", () => {
    const w = loaderWorld();
    w.run(LOADER_SOURCE + calls);
    w.run(`${LOADER_SOURCE}self.__paintFirst(["/_next/static/chunks/c.js",null,"",1])`);
    w.paint("first-contentful-paint");
    expect(w.appended).toHaveLength(3);
  });

  it(`adds them after ${LOADER_TIMEOUT_MS} ms when no paint is reported`, () => {
    const w = loaderWorld();
    w.run(LOADER_SOURCE + calls);
    expect(w.appended).toEqual([]);
    w.fireTimers();
    expect(w.appended).toHaveLength(2);
  });

  it("adds them once parsed when the body has no text (a shell the code draws), and waits for the paint otherwise", () => {
    const empty = loaderWorld({ bodyText: " \n " });
    empty.run(LOADER_SOURCE + calls);
    expect(empty.appended).toEqual([]);
    empty.fire("DOMContentLoaded");
    expect(empty.appended).toHaveLength(2);
    const page = loaderWorld();
    page.run(LOADER_SOURCE + calls);
    page.fire("DOMContentLoaded");
    expect(page.appended).toEqual([]);
    page.paint("first-contentful-paint");
    expect(page.appended).toHaveLength(2);
  });

  it("adds them when the page is hidden before it painted", () => {
    const w = loaderWorld();
    w.run(LOADER_SOURCE + calls);
    w.fire("visibilitychange");
    expect(w.appended).toHaveLength(2);
  });

  it("adds them at once in a page loaded hidden and in a browser without paint timing", () => {
    for (const world of [loaderWorld({ visibility: "hidden" }), loaderWorld({ paintTiming: false })]) {
      world.run(LOADER_SOURCE + calls);
      expect(world.appended).toHaveLength(2);
    }
  });
});

describe("paintFirst on a response", () => {
  let server: Server | undefined;
  afterEach(() => new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve())));

  async function serve(handler: Parameters<typeof createServer>[1]): Promise<string> {
    server = createServer((req, res) => {
      paintFirst(res);
      handler?.(req, res);
    });
    const listening = server;
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    return `http://127.0.0.1:${(listening.address() as AddressInfo).port}`;
  }

  it("rewrites HTML streamed in pieces and drops a Content-Length the rewrite makes wrong", async () => {
    const body = Buffer.from(HEAD);
    const base = await serve((_req, res) => {
      res.setHeader("content-type", "text/html; charset=utf-8");
      res.setHeader("content-length", String(body.length));
      res.write(body.subarray(0, 100));
      res.write(body.subarray(100, 333).toString("latin1"), "latin1");
      res.end(body.subarray(333));
    });
    const res = await fetch(base);
    expect(res.headers.get("content-length")).toBeNull();
    expect(await res.text()).toBe(rewrite(HEAD));
  });

  it("sees a content type given to writeHead", async () => {
    const base = await serve((_req, res) => {
      res.writeHead(200, { "content-type": "text/html", "content-length": Buffer.byteLength(HEAD) });
      res.end(HEAD);
    });
    const res = await fetch(base);
    expect(await res.text()).toBe(rewrite(HEAD));
  });

  it("passes anything that is not HTML through untouched, Content-Length and all", async () => {
    const json = JSON.stringify({ html: HEAD });
    const base = await serve((_req, res) => {
      res.setHeader("content-type", "application/json");
      res.setHeader("content-length", String(Buffer.byteLength(json)));
      res.end(json);
    });
    const res = await fetch(base);
    expect(res.headers.get("content-length")).toBe(String(Buffer.byteLength(json)));
    expect(await res.text()).toBe(json);
  });
});
