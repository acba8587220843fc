import { describe, expect, it } from "vitest";
import { client, initialize, randomAddress, signup, targets } from "./helpers/api";

/**
 * An expired checkout's address says the payment expired and leads back to the merchant (its callbackUrl,
 * with the payment's status and reference), in the page's language; a mistyped one is still "not valid".
 * Both are 404s rendered on the server, readable without JavaScript.
 */
async function page(url: string) {
  const res = await fetch(url, { headers: { "x-forwarded-for": randomAddress() }, redirect: "manual" });
  return { status: res.status, html: await res.text() };
}

/** The href of the link whose text is `text`, as the HTML has it (entities decoded). */
function hrefOf(html: string, text: string): string | undefined {
  for (const m of html.matchAll(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/g))
    if ((m[2] ?? "").replace(/<[^>]+>/g, "").includes(text)) return (m[1] ?? "").replaceAll("&amp;", "&");
  return undefined;
}

describe.each(targets)("the expired checkout page on $name", (target) => {
  const api = client(target.url);

  it("says the payment expired and returns to the merchant's callbackUrl, in each language", async () => {
    const m = await signup(api, { businessName: "Expiry Kitchen" });
    const init = await initialize(api, m.testKey, {
      amount: "5000",
      email: "payer@example.com",
      callbackUrl: "https://shop.example/back?order=17",
    });
    const { accessCode, reference } = init.body.data;
    const moved = await api.post(
      "/v1/sandbox/clock/advance",
      { reference, seconds: 2 * 24 * 3600 },
      { "x-api-key": m.testKey },
    );
    expect(moved.status).toBe(200);

    const en = await page(`${target.url}/pay/${accessCode}`);
    expect(en.status).toBe(404);
    expect(en.html).toContain("This payment has expired");
    expect(en.html).toContain("The time to pay Expiry Kitchen on this page ran out.");
    expect(en.html).not.toContain("This payment link is not valid");
    const back = new URL(hrefOf(en.html, "Return to Expiry Kitchen") ?? "about:blank");
    expect(`${back.origin}${back.pathname}`).toBe("https://shop.example/back");
    expect(Object.fromEntries(back.searchParams)).toMatchObject({
      order: "17",
      reference,
      amount: "5000.00",
      currency: "NGN",
    });
    expect(back.searchParams.get("status")).toMatch(/^(pending|abandoned)$/);

    const fr = await page(`${target.url}/pay/${accessCode}?lang=fr`);
    expect(fr.status).toBe(404);
    expect(fr.html).toContain("Ce paiement a expiré");
    expect(hrefOf(fr.html, "Retourner chez Expiry Kitchen")).toContain("https://shop.example/back");
    const pcm = await page(`${target.url}/pay/${accessCode}?lang=pcm`);
    expect(pcm.html).toContain("This payment don expire");
  });

  it("without a callbackUrl: says it expired and to start again from the merchant; a typo is still not valid", async () => {
    const m = await signup(api, { businessName: "No Return Shop" });
    const init = await initialize(api, m.testKey, { amount: "100", email: "payer@example.com" });
    const { accessCode, reference } = init.body.data;
    await api.post(
      "/v1/sandbox/clock/advance",
      { reference, seconds: 2 * 24 * 3600 },
      { "x-api-key": m.testKey },
    );
    const expired = await page(`${target.url}/pay/${accessCode}`);
    expect(expired.status).toBe(404);
    expect(expired.html).toContain("This payment has expired");
    expect(expired.html).toContain("Start the payment again from No Return Shop.");
    expect(hrefOf(expired.html, "Return to")).toBeUndefined();

    const typo = await page(`${target.url}/pay/${accessCode.slice(0, -2)}zz`);
    expect(typo.status).toBe(404);
    expect(typo.html).toContain("This payment link is not valid");
    expect(typo.html).not.toContain("This payment has expired");
  });
});
