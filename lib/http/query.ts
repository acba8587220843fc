import { AppError } from "@/lib/core/errors";
import { assertCleanText } from "./body";

/**
 * A request's query string as every route and page reads it (the API's withApi, the console's routes and
 * pages): each name and value percent-decoded as UTF-8, `+` as a space, the last of a repeated name kept.
 * Refused with 400 `validation_error` naming the parameter: bytes that are not UTF-8 (a stray or overlong
 * byte, an encoded surrogate, a truncated sequence). Next hands routes and pages an address it has already
 * decoded and encoded again, where such bytes have become U+FFFD, the replacement character; so U+FFFD is
 * refused too (no filter or cursor is ever meant to hold it), and an escape that cannot be decoded at all.
 * Then, through `assertCleanText`, NUL characters and unpaired surrogates, in every value given, the
 * repeated ones too.
 */
export function readQuery(search: string): Record<string, string> {
  const text = search.startsWith("?") ? search.slice(1) : search;
  const out: Record<string, string> = {};
  if (text === "") return out;
  const all: Array<[string, string]> = [];
  for (const pair of text.split("&")) {
    if (pair === "") continue;
    const at = pair.indexOf("=");
    const rawName = at < 0 ? pair : pair.slice(0, at);
    const rawValue = at < 0 ? "" : pair.slice(at + 1);
    const name = decode(rawName, () => `query parameter ${JSON.stringify(rawName.slice(0, 40))}`);
    const value = decode(rawValue, () => `query parameter ${name}`);
    all.push([name, value]);
    out[name] = value;
  }
  // Every name and every value given, so a NUL in a repeated parameter is refused even where a later one wins.
  for (const [name, value] of all) {
    assertCleanText(name, "a query parameter name");
    assertCleanText(value, name);
  }
  return out;
}

function decode(raw: string, field: () => string): string {
  let text: string | undefined;
  try {
    text = decodeURIComponent(raw.replaceAll("+", " "));
  } catch {
    text = undefined;
  }
  if (text === undefined || text.includes("\uFFFD")) {
    throw new AppError(
      "validation_error",
      `${field()} must be valid percent-encoded UTF-8 (each % followed by two hex digits, together the bytes of UTF-8 text).`,
    );
  }
  return text;
}
