import { describe, expect, it } from "vitest";
import { checkEmbedOrigin, EmbedOriginsSchema, parseEmbedOrigins } from "./embed-origins";

const staging = (v: string) => checkEmbedOrigin(v, false);
const production = (v: string) => checkEmbedOrigin(v, true);

describe("embed origins", () => {
  it("takes an https origin and writes it as browsers do", () => {
    expect(production("https://Shop.Example")).toEqual({ ok: true, origin: "https://shop.example" });
    expect(production("https://shop.example/")).toEqual({ ok: true, origin: "https://shop.example" });
    expect(production("https://shop.example:443")).toEqual({ ok: true, origin: "https://shop.example" });
    expect(production("https://shop.example:8443")).toEqual({
      ok: true,
      origin: "https://shop.example:8443",
    });
  });

  it("takes http only for localhost and 127.0.0.1, and only on staging", () => {
    expect(staging("http://localhost:3000")).toEqual({ ok: true, origin: "http://localhost:3000" });
    expect(staging("http://127.0.0.1:4320")).toEqual({ ok: true, origin: "http://127.0.0.1:4320" });
    expect(staging("http://shop.example")).toMatchObject({
      ok: false,
      reason: expect.stringContaining("https"),
    });
    expect(production("http://localhost:3000")).toEqual({ ok: false, reason: "must be https on production" });
    expect(production("http://127.0.0.1")).toMatchObject({ ok: false });
  });

  it("refuses anything but an origin", () => {
    for (const value of [
      "https://shop.example/checkout",
      "https://shop.example?x=1",
      "https://shop.example#top",
      "https://user:pw@shop.example",
      "https://*.shop.example",
      "shop.example",
      "ftp://shop.example",
      "javascript:alert(1)",
      "*",
      "'self'",
      "https://shop.example; script-src *",
      `https://${"a".repeat(200)}.example`,
    ]) {
      expect(staging(value).ok, value).toBe(false);
      expect(production(value).ok, value).toBe(false);
    }
  });

  it("the settings field: the list checked, normalized, no repeats, at most 10", () => {
    expect(EmbedOriginsSchema.parse(["https://A.example/", "http://localhost:3000"])).toEqual([
      "https://a.example",
      "http://localhost:3000",
    ]);
    expect(EmbedOriginsSchema.parse([])).toEqual([]);
    const repeat = EmbedOriginsSchema.safeParse(["https://a.example", "https://A.example/"]);
    expect(repeat.success).toBe(false);
    expect(repeat.error?.issues[0]).toMatchObject({ path: [1], message: "must not repeat an origin" });
    const bad = EmbedOriginsSchema.safeParse(["https://a.example", "https://a.example/path"]);
    expect(bad.error?.issues[0]?.path).toEqual([1]);
    const many = Array.from({ length: 11 }, (_, i) => `https://s${i}.example`);
    expect(EmbedOriginsSchema.safeParse(many).error?.issues[0]?.message).toBe("must list at most 10 origins");
  });

  it("reads a stored list by the deployment's rules, leaving out what it cannot use", () => {
    expect(parseEmbedOrigins(null)).toEqual([]);
    expect(parseEmbedOrigins("not json")).toEqual([]);
    expect(parseEmbedOrigins('{"a":1}')).toEqual([]);
    expect(
      parseEmbedOrigins('["https://a.example", 3, "https://a.example/x", "http://localhost:1"]'),
    ).toEqual([
      "https://a.example",
      // The test process runs as staging (PAYMENTS_ENV unset).
      "http://localhost:1",
    ]);
  });
});
