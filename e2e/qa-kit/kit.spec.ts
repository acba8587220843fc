import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { test as kit, TEST_CARDS, timed, WAIT_BUDGET_MS, waited, waitReport } from "../../qa-kit/index.mjs";

/**
 * The QA kit's own promises: its wait budget is reported on every test and fails one only when the suite asks
 * (`waitBudgetMs`); the package holds every file its package.json lists; its test cards are the sandbox's.
 */
const root = join(import.meta.dirname, "../..");
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

kit.describe("the wait budget, by default", () => {
  // The kit's budget fixture ends after the test: had it failed this test, the run would say so.
  kit("a test that waited longer than 2 s passes (its figure is reported, not enforced)", async () => {
    await timed("a slow service", () => sleep(WAIT_BUDGET_MS + 100));
    kit.expect(waited().totalMs).toBeGreaterThan(WAIT_BUDGET_MS);
  });
});

kit.describe("the wait budget, asked for with waitBudgetMs", () => {
  kit.use({ waitBudgetMs: 50 });
  kit("a test that waited longer than its waitBudgetMs fails", async () => {
    kit.fail();
    await timed("a slow service", () => sleep(100));
  });
  kit("a test within it passes", async () => {
    await timed("a quick service", () => Promise.resolve());
  });
});

kit("the report names the total, the budget, and each wait", () => {
  kit
    .expect(waitReport(1830.4, 2000, false, ["open 900 ms", "result 930 ms"]))
    .toBe("1830 ms of 2000 ms (within budget): open 900 ms, result 930 ms");
  kit.expect(waitReport(2578, 2000, true, [])).toBe("2578 ms of 2000 ms (over budget)");
});

kit("the package holds every file its package.json lists, and a README", () => {
  const pkg = JSON.parse(readFileSync(join(root, "qa-kit/package.json"), "utf8")) as { files: string[] };
  kit.expect(pkg.files).toContain("README.md");
  // api-types.d.ts is generated from the OpenAPI document (npm run sdk:build), never committed.
  for (const file of pkg.files.filter((f) => f !== "api-types.d.ts"))
    kit.expect(existsSync(join(root, "qa-kit", file)), `qa-kit/${file}`).toBe(true);
  kit.expect(readFileSync(join(root, "qa-kit/README.md"), "utf8")).toContain("waitBudgetMs");
});

kit("TEST_CARDS has the sandbox's 3-D Secure card", () => {
  kit.expect(TEST_CARDS.threeDSecure).toBe("4000000000003063");
  kit.expect(readFileSync(join(root, "docs/testing.md"), "utf8")).toContain("`4000 0000 0000 3063`");
});
