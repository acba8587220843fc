import { randomString } from "@/lib/security/tokens";

/** A readable, unique slug: the title's words, then 6 random characters (`school-fees-k3x9p2`). */
export function newSlug(title: string): string {
  const words = title
    .normalize("NFKD")
    .replace(/[\u0300-\u036f]/g, "")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 40)
    .replace(/-+$/, "");
  const suffix = randomString(6, "abcdefghijkmnpqrstuvwxyz23456789");
  return words ? `${words}-${suffix}` : `pay-${suffix}`;
}
