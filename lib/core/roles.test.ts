import { describe, expect, it } from "vitest";
import { ENDPOINTS } from "@/lib/endpoints";
import { can, PERMISSIONS, ROLE_PERMISSIONS, ROLES } from "./roles";

/** The registry's permissions (lib/core/roles.ts): every session endpoint names one, and no other kind does. */
describe("roles and permissions", () => {
  it("every session endpoint declares a permission of the table, beside its definition", () => {
    const missing = ENDPOINTS.filter((e) => e.auth === "session" && !e.permission).map(
      (e) => `${e.method} ${e.path}`,
    );
    expect(missing).toEqual([]);
    const stray = ENDPOINTS.filter((e) => e.auth !== "session" && e.permission).map(
      (e) => `${e.method} ${e.path}`,
    );
    expect(stray).toEqual([]);
    for (const e of ENDPOINTS) if (e.permission) expect(Object.keys(PERMISSIONS)).toContain(e.permission);
  });

  it("owners hold everything, admins all but owners' changes, viewers change nothing", () => {
    expect(ROLE_PERMISSIONS.owner).toEqual(Object.keys(PERMISSIONS));
    expect(Object.keys(PERMISSIONS).filter((p) => !can("admin", p as never))).toEqual(["team.owners"]);
    expect(ROLE_PERMISSIONS.viewer.filter((p) => !p.endsWith(".read") && p !== "account.self")).toEqual([]);
    for (const role of ROLES) expect(can(role, "account.self")).toBe(true);
    expect(can("intruder", "payments.read")).toBe(false);
  });
});
