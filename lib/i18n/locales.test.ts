import { describe, expect, it } from "vitest";
import { fmt, fromAcceptLanguage, resolveLocale } from "./locales";

describe("fromAcceptLanguage", () => {
  it("picks the best of our languages by q-value, then order", () => {
    expect(fromAcceptLanguage("yo-NG,yo;q=0.9,en;q=0.8")).toBe("yo");
    expect(fromAcceptLanguage("de-DE,fr;q=0.5,ha;q=0.7")).toBe("ha");
    expect(fromAcceptLanguage("pcm")).toBe("pcm");
    expect(fromAcceptLanguage("de, ja")).toBeNull();
    expect(fromAcceptLanguage("ig;q=0, fr-SN")).toBe("fr");
    expect(fromAcceptLanguage("")).toBeNull();
  });
});

describe("resolveLocale", () => {
  it("prefers the payment's own language, then ?lang=, then Accept-Language, then English", () => {
    expect(resolveLocale({ stored: "ig", query: "fr", acceptLanguage: "yo" })).toBe("ig");
    expect(resolveLocale({ stored: null, query: "fr", acceptLanguage: "yo" })).toBe("fr");
    expect(resolveLocale({ query: "xx", acceptLanguage: "yo" })).toBe("yo");
    expect(resolveLocale({ acceptLanguage: "de" })).toBe("en");
  });
});

describe("fmt", () => {
  it("puts the values in and leaves unknown placeholders", () => {
    expect(fmt("You paid {amount} to {merchant}.", { amount: "NGN 5.00", merchant: "Ada" })).toBe(
      "You paid NGN 5.00 to Ada.",
    );
    expect(fmt("{x} {y}", { x: 1 })).toBe("1 {y}");
  });
});
